/* Per-day charts for the console, drawn as plain SVG (no library, nothing fetched):
 *   fgCharts.bars(days, series, {width, height, format})   stacked bars, one per day
 *   fgCharts.lines(days, series, {width, height, format})  lines with points (gaps stay gaps)
 * `days` are ISO dates; each series is {key, label, color, values: [number|null per day]}.
 * Every bar and point has a <title> (the browser shows it on hover), the SVG an aria-label. */
(function () {
  "use strict";
  var NS = "http://www.w3.org/2000/svg";
  var PAD = { left: 44, right: 8, top: 10, bottom: 24 };

  function node(tag, attrs, text) {
    var n = document.createElementNS(NS, tag);
    Object.keys(attrs || {}).forEach(function (k) { n.setAttribute(k, attrs[k]); });
    if (text !== undefined) n.textContent = text;
    return n;
  }

  function dayLabel(iso) {
    var d = new Date(iso + "T12:00:00Z");
    return d.toLocaleDateString("ru-RU", { day: "numeric", month: "short", timeZone: "UTC" });
  }

  /* A round top for the y axis whose middle is round too (ticks 0, ½, 1): a count of 5
   * gets 6, not 5 with a middle of 2,5 printed as «3». */
  function niceMax(max) {
    if (!(max > 0)) return 2;
    var step = Math.pow(10, Math.floor(Math.log10(max)));
    var top = [1, 2, 4, 6, 8, 10].map(function (m) { return m * step; }).find(function (v) { return v >= max; });
    return Math.max(2, top || 10 * step);
  }

  function frame(width, height, top, format, label) {
    var svg = node("svg", {
      width: width, height: height, viewBox: "0 0 " + width + " " + height,
      role: "img", "aria-label": label, class: "fc-svg"
    });
    var inner = height - PAD.top - PAD.bottom;
    [0, 0.5, 1].forEach(function (f) {
      var y = PAD.top + inner * (1 - f);
      svg.appendChild(node("line", { x1: PAD.left, x2: width - PAD.right, y1: y, y2: y, class: "fc-grid" }));
      svg.appendChild(node("text", { x: PAD.left - 6, y: y + 4, "text-anchor": "end", class: "fc-tick" }, format(top * f)));
    });
    return svg;
  }

  function xLabels(svg, days, x, width) {
    var every = Math.max(1, Math.ceil(days.length / Math.max(2, Math.floor((width - PAD.left) / 64))));
    days.forEach(function (iso, i) {
      if (i % every) return;
      svg.appendChild(node("text", { x: x(i), y: svg.getAttribute("height") - 6, "text-anchor": "middle", class: "fc-tick" }, dayLabel(iso)));
    });
  }

  function tip(day, series, i, format) {
    return dayLabel(day) + ": " + series.map(function (s) {
      var v = s.values[i];
      return s.label + " — " + (v === null || v === undefined ? "нет данных" : format(v));
    }).join(", ");
  }

  function bars(days, series, opts) {
    var width = opts.width, height = opts.height || 190, format = opts.format;
    var totals = days.map(function (_, i) {
      return series.reduce(function (sum, s) { return sum + (s.values[i] || 0); }, 0);
    });
    var top = niceMax(Math.max.apply(null, totals.concat([0])));
    var svg = frame(width, height, top, format, opts.label);
    var inner = height - PAD.top - PAD.bottom, slot = (width - PAD.left - PAD.right) / Math.max(1, days.length);
    var bar = Math.max(1, Math.min(28, slot * 0.72));
    var x = function (i) { return PAD.left + slot * (i + 0.5); };
    days.forEach(function (day, i) {
      var y = PAD.top + inner, group = node("g", { class: "fc-bar" });
      group.appendChild(node("title", {}, tip(day, series, i, format)));
      series.forEach(function (s) {
        var h = inner * (s.values[i] || 0) / top;
        if (h <= 0) return;
        y -= h;
        group.appendChild(node("rect", { x: x(i) - bar / 2, y: y, width: bar, height: h, fill: s.color, "data-series": s.key }));
      });
      // an invisible full-height target, so an empty day still answers on hover
      group.appendChild(node("rect", { x: x(i) - slot / 2, y: PAD.top, width: slot, height: inner, fill: "transparent" }));
      svg.appendChild(group);
    });
    xLabels(svg, days, x, width);
    return svg;
  }

  function lines(days, series, opts) {
    var width = opts.width, height = opts.height || 190, format = opts.format;
    var all = [];
    series.forEach(function (s) { s.values.forEach(function (v) { if (v !== null && v !== undefined) all.push(v); }); });
    var top = niceMax(Math.max.apply(null, all.concat([0])));
    var svg = frame(width, height, top, format, opts.label);
    var inner = height - PAD.top - PAD.bottom, slot = (width - PAD.left - PAD.right) / Math.max(1, days.length);
    var x = function (i) { return PAD.left + slot * (i + 0.5); };
    var y = function (v) { return PAD.top + inner * (1 - v / top); };
    series.forEach(function (s) {
      var path = "", pen = false;
      s.values.forEach(function (v, i) {
        if (v === null || v === undefined) { pen = false; return; }
        path += (pen ? " L" : " M") + x(i).toFixed(1) + " " + y(v).toFixed(1);
        pen = true;
      });
      if (path) svg.appendChild(node("path", { d: path.trim(), stroke: s.color, fill: "none", class: "fc-line", "data-series": s.key }));
      s.values.forEach(function (v, i) {
        if (v === null || v === undefined) return;
        var dot = node("circle", { cx: x(i), cy: y(v), r: days.length > 60 ? 1.5 : 3, fill: s.color, "data-series": s.key });
        dot.appendChild(node("title", {}, tip(days[i], series, i, format)));
        svg.appendChild(dot);
      });
    });
    xLabels(svg, days, x, width);
    return svg;
  }

  window.fgCharts = { bars: bars, lines: lines, dayLabel: dayLabel };
})();
