/* A calculation's `display` block (docs: DISPLAY contract, assistant/answer/calculations/display.py) → DOM:
 * title and headline, then a collapsed <details> with the inputs, the breakdown rows, the GPU
 * options table, the assumptions and the source line. Shared by the chat widget and the agent
 * page. Only strings and numbers are ever shown (textContent): a value of any other type is
 * dropped rather than printed as `[object Object]`; without a usable block nothing is rendered. */
(function () {
  "use strict";
  if (window.fgDisplay) return;

  function text(value) {
    if (typeof value === "string") return value.trim();
    if (typeof value === "number" && isFinite(value)) return value.toLocaleString("ru-RU");
    return "";
  }

  function list(value) { return Array.isArray(value) ? value : []; }

  function el(tag, cls, content) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (content) node.textContent = content;
    return node;
  }

  // «141 ГБ», «1 344», «3,00 $», «77–92 ГБ»: right-aligned so the digits line up
  var NUMERIC = /^[≈~]?\s?[\d\u00a0\u202f\s.,–—-]+\s?(ГБ|ТБ|МБ|ч|\$|₽|GPU-ч|%|шт\.?)?$/;

  function kind(shown) {
    if (/^да$/i.test(shown)) return "fg-yes";
    if (/^нет$/i.test(shown)) return "fg-no";
    return NUMERIC.test(shown) ? "fg-num" : "";
  }

  function cell(tag, value) {
    var shown = text(value);
    return el(tag, kind(shown), shown);
  }

  function pairs(caption, items, cls, alignNumbers) {
    var rows = list(items).map(function (item) {
      var label = text(item && item.label), value = text(item && item.value);
      if (!label || !value) return null;
      var th = el("th", "", label);
      var note = text(item.note);
      if (note) th.appendChild(el("span", "fg-calc-note", note));
      var tr = el("tr", item.strong === true ? "fg-strong" : "");
      tr.appendChild(th);
      tr.appendChild(alignNumbers ? cell("td", value) : el("td", "", value));
      return tr;
    }).filter(Boolean);
    if (!rows.length) return null;
    var table = el("table", cls);
    table.appendChild(el("caption", "", caption));
    var body = el("tbody");
    rows.forEach(function (tr) { body.appendChild(tr); });
    table.appendChild(body);
    return table;
  }

  function options(table) {
    if (!table || typeof table !== "object") return null;
    var columns = list(table.columns).map(text);
    var rows = list(table.rows).filter(function (r) { return Array.isArray(r) && r.length; });
    if (!columns.length || !rows.length) return null;
    var node = el("table", "fg-calc-options");
    node.appendChild(el("caption", "", text(table.caption) || "Варианты"));
    var head = el("tr");
    columns.forEach(function (c, i) {  // a header sits over its column: numbers to the right
      head.appendChild(el("th", i && kind(text(rows[0][i])) === "fg-num" ? "fg-num" : "", c));
    });
    node.appendChild(el("thead")).appendChild(head);
    var body = node.appendChild(el("tbody"));
    rows.forEach(function (r) {
      var tr = body.appendChild(el("tr"));
      columns.forEach(function (_, i) { tr.appendChild(cell(i ? "td" : "th", r[i])); });
    });
    var wrap = el("div", "fg-scroll");  // a wide table scrolls inside, never widens the page
    wrap.appendChild(node);
    return wrap;
  }

  function assumptions(items) {
    var shown = list(items).map(text).filter(Boolean);
    if (!shown.length) return null;
    var box = el("div", "fg-calc-assumptions");
    box.appendChild(el("p", "fg-calc-sub", "Допущения"));
    var ul = box.appendChild(el("ul"));
    shown.forEach(function (a) { ul.appendChild(el("li", "", a)); });
    return box;
  }

  /* display → <section class="fg-calc"> or null when the block is missing or empty. */
  function render(display, summaryText) {
    if (!display || typeof display !== "object") return null;
    var title = text(display.title), headline = text(display.headline);
    if (!title && !headline) return null;
    var section = el("section", "fg-calc fg-tool");
    section.setAttribute("aria-label", title || "Расчёт");
    if (title) section.appendChild(el("p", "fg-calc-title", title));
    if (headline) section.appendChild(el("p", "fg-calc-headline", headline));
    var parts = [
      pairs("Исходные данные", display.inputs, "fg-calc-inputs", false),
      pairs("Расчёт", display.rows, "fg-calc-rows", true),
      options(display.table),
      assumptions(display.assumptions)
    ].filter(Boolean);
    var source = text(display.source);
    if (source) parts.push(el("p", "fg-calc-source", source));
    if (!parts.length) return section;
    var details = el("details", "fg-calc-more");
    details.appendChild(el("summary", "", summaryText || "Как считали"));
    parts.forEach(function (p) { details.appendChild(p); });
    section.appendChild(details);
    return section;
  }

  window.fgDisplay = { render: render };
})();
