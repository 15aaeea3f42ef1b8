/* The console's overview tab: KPI cards, the per-day charts (charts.js) with their numbers
 * beside them, and the table by channel, from GET /admin/api/overview. */
(function () {
  "use strict";
  var $ = function (id) { return document.getElementById(id); };
  var f = window.fgFormat;
  var el = f.el, number = f.number, percent = f.percent, duration = f.duration, plural = f.plural;
  var COLORS = {
    answered: "#15803d", declined: "#b91c1c", handoff: "#d97706", clarify: "#2563eb",
    up: "#15803d", down: "#b91c1c", llm: "#7c3aed", embedded: "#94a3b8", fallbacks: "#ea580c",
    conversations: "#0b5fff", p50: "#2563eb", p95: "#b91c1c"
  };

  function kpi(label, value, note, tone) {
    var box = el("div", null, "fc-kpi" + (tone ? " fc-" + tone : ""));
    box.appendChild(el("span", label, "fc-kpi-label"));
    box.appendChild(el("strong", value, "fc-kpi-value"));
    if (note) box.appendChild(el("span", note, "fc-kpi-note"));
    return box;
  }

  function kpis(t) {
    var box = $("kpis");
    box.textContent = "";
    var rated = t.up + t.down;
    box.appendChild(kpi("Разговоры", number(t.conversations), number(t.messages) + " " + plural(t.messages, "сообщение", "сообщения", "сообщений")));
    box.appendChild(kpi("Ответил сам", percent(t.answered, t.answers), number(t.answered) + " из " + number(t.answers), "good"));
    box.appendChild(kpi("Отказал", percent(t.declined, t.answers), number(t.declined) + " " + plural(t.declined, "вопрос", "вопроса", "вопросов"), "bad"));
    box.appendChild(kpi("Передал людям", percent(t.handoff, t.answers), number(t.handoff) + " " + plural(t.handoff, "вопрос", "вопроса", "вопросов"), "warn"));
    box.appendChild(kpi("Уточнил", percent(t.clarify, t.answers), number(t.clarify) + " " + plural(t.clarify, "вопрос", "вопроса", "вопросов")));
    box.appendChild(kpi("Оценили «полезно»", percent(t.up, rated), rated ? "✓ " + number(t.up) + " · ✗ " + number(t.down) : "оценок нет"));
    box.appendChild(kpi("Ответы языковой модели", percent(t.llm, t.answers), "запасных ответов: " + number(t.fallbacks)));
    box.appendChild(kpi("Время ответа", duration(t.p50_ms), "медиана; 95 % быстрее " + duration(t.p95_ms)));
    if (t.unanswered) box.appendChild(kpi("Без ответа", number(t.unanswered), "движок не смог ответить", "bad"));
  }

  function legend(items) {
    var list = el("ul", null, "fc-legend");
    items.forEach(function (it) {
      var li = el("li");
      var swatch = el("span", null, "fc-swatch");
      swatch.style.background = it.color;
      li.appendChild(swatch);
      li.appendChild(el("span", it.label, "fc-legend-label"));
      li.appendChild(el("strong", it.value, "fc-legend-value"));
      list.appendChild(li);
    });
    return list;
  }

  /* Cards go in first and are drawn once the grid has laid them out, so each chart is drawn at
   * the width it is shown at (an SVG scaled down afterwards would shrink its text too). */
  function chartCard(id, title, draw, side) {
    var card = el("figure", null, "fc-card fc-chart");
    card.id = id;
    card.appendChild(el("figcaption", title));
    var body = el("div", null, "fc-chart-body");
    var plot = el("div", null, "fc-plot");
    body.appendChild(plot);
    body.appendChild(legend(side));
    card.appendChild(body);
    $("charts").appendChild(card);
    pending.push(function () { plot.appendChild(draw(Math.max(220, Math.floor(plot.clientWidth)))); });
  }
  var pending = [];

  function series(days, key) { return days.map(function (d) { return d[key]; }); }

  function drawCharts(o) {
    var charts = $("charts");
    charts.textContent = "";
    pending = [];
    var days = o.days.map(function (d) { return d.date; }), t = o.totals, count = function (v) { return number(Math.round(v)); };
    chartCard("chart-conversations", "Разговоры и сообщения по дням", function (w) {
      return fgCharts.bars(days, [
        { key: "conversations", label: "разговоры", color: COLORS.conversations, values: series(o.days, "conversations") }
      ], { width: w, format: count, label: "Разговоры по дням: всего " + number(t.conversations) });
    }, [
      { label: "Разговоров", value: number(t.conversations), color: COLORS.conversations },
      { label: "Сообщений", value: number(t.messages), color: "transparent" },
      { label: "Разговоров в день", value: (t.conversations / Math.max(1, days.length)).toLocaleString("ru-RU", { maximumFractionDigits: 1 }), color: "transparent" }
    ]);
    var outcomes = [
      ["answered", "Ответил сам"], ["clarify", "Уточнил"], ["handoff", "Передал людям"], ["declined", "Отказал"]
    ];
    chartCard("chart-outcomes", "Чем закончились вопросы", function (w) {
      return fgCharts.bars(days, outcomes.map(function (p) {
        return { key: p[0], label: p[1].toLowerCase(), color: COLORS[p[0]], values: series(o.days, p[0]) };
      }), { width: w, format: count, label: "Исходы вопросов по дням" });
    }, outcomes.map(function (p) {
      return { label: p[1], value: number(t[p[0]]) + " · " + percent(t[p[0]], t.answers), color: COLORS[p[0]] };
    }));
    chartCard("chart-feedback", "Оценки ответов", function (w) {
      return fgCharts.bars(days, [
        { key: "up", label: "полезно", color: COLORS.up, values: series(o.days, "up") },
        { key: "down", label: "не помогло", color: COLORS.down, values: series(o.days, "down") }
      ], { width: w, format: count, label: "Оценки по дням" });
    }, [
      { label: "✓ Полезно", value: number(t.up) + " · " + percent(t.up, t.up + t.down), color: COLORS.up },
      { label: "✗ Не помогло", value: number(t.down) + " · " + percent(t.down, t.up + t.down), color: COLORS.down },
      { label: "Оценили ответов", value: percent(t.up + t.down, t.answers), color: "transparent" }
    ]);
    chartCard("chart-generator", "Кто писал ответ", function (w) {
      return fgCharts.bars(days, [
        { key: "llm", label: "языковая модель", color: COLORS.llm, values: series(o.days, "llm") },
        { key: "embedded", label: "встроенный генератор", color: COLORS.embedded, values: series(o.days, "embedded") }
      ], { width: w, format: count, label: "Генератор ответов по дням" });
    }, [
      { label: "Языковая модель", value: number(t.llm) + " · " + percent(t.llm, t.answers), color: COLORS.llm },
      { label: "Встроенный генератор", value: number(t.embedded) + " · " + percent(t.embedded, t.answers), color: COLORS.embedded },
      { label: "Из них запасные ответы", value: number(t.fallbacks), color: COLORS.fallbacks }
    ]);
    chartCard("chart-latency", "Время ответа", function (w) {
      return fgCharts.lines(days, [
        { key: "p50", label: "медиана", color: COLORS.p50, values: series(o.days, "p50_ms") },
        { key: "p95", label: "95 %", color: COLORS.p95, values: series(o.days, "p95_ms") }
      ], { width: w, format: duration, label: "Время ответа по дням" });
    }, [
      { label: "Медиана", value: duration(t.p50_ms), color: COLORS.p50 },
      { label: "95 % ответов быстрее", value: duration(t.p95_ms), color: COLORS.p95 }
    ]);
    pending.forEach(function (draw) { draw(); });
    pending = [];
  }

  function channelTable(rows) {
    var table = $("by-channel");
    table.textContent = "";
    var head = ["Канал", "Разговоры", "Вопросы", "Ответил", "Отказал", "Передал", "Уточнил", "Полезно", "Не помогло", "Модель", "Медиана", "95 %"];
    var tr = el("tr");
    head.forEach(function (h, i) { tr.appendChild(el("th", h, i ? "fg-num" : "")); });
    var thead = el("thead");
    thead.appendChild(tr);
    table.appendChild(thead);
    var body = el("tbody");
    if (!rows.length) {
      var empty = el("tr"), td = el("td", "За этот период разговоров не было.");
      td.colSpan = head.length;
      empty.appendChild(td);
      body.appendChild(empty);
    }
    rows.forEach(function (r) {
      var row = el("tr");
      [r.label, number(r.conversations), number(r.answers), percent(r.answered, r.answers), percent(r.declined, r.answers),
        percent(r.handoff, r.answers), percent(r.clarify, r.answers), number(r.up), number(r.down),
        percent(r.llm, r.answers), duration(r.p50_ms), duration(r.p95_ms)].forEach(function (v, i) {
        row.appendChild(el(i ? "td" : "th", v, i ? "fg-num" : ""));
      });
      body.appendChild(row);
    });
    table.appendChild(body);
  }

  function render(o) {
    kpis(o.totals);
    drawCharts(o);
    channelTable(o.channels);
  }

  window.fgOverview = { render: render, redraw: drawCharts };
})();
