/* Formatting shared by the console's scripts: DOM nodes with text only (never HTML), Russian
 * numbers, percentages, durations, plurals and times in the server's time zone. */
(function () {
  "use strict";
  function el(tag, text, cls) {
    var n = document.createElement(tag);
    if (text !== undefined && text !== null) n.textContent = text;
    if (cls) n.className = cls;
    return n;
  }

  function number(n) { return Number(n || 0).toLocaleString("ru-RU"); }

  function percent(part, whole) {
    if (!whole) return "—";
    var p = 100 * part / whole;
    return (p > 0 && p < 1 ? "<1" : Math.round(p).toLocaleString("ru-RU")) + "\u00a0%";
  }

  function duration(ms) {
    if (ms === null || ms === undefined) return "—";
    if (ms < 1000) return Math.round(ms).toLocaleString("ru-RU") + "\u00a0мс";
    return (ms / 1000).toLocaleString("ru-RU", { maximumFractionDigits: ms < 10000 ? 1 : 0 }) + "\u00a0с";
  }

  function when(iso, zone) {
    return new Date(iso).toLocaleString("ru-RU", {
      day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit",
      timeZone: zone || undefined
    });
  }

  function plural(n, one, few, many) {
    var m10 = n % 10, m100 = n % 100;
    if (m10 === 1 && m100 !== 11) return one;
    if (m10 >= 2 && m10 <= 4 && (m100 < 12 || m100 > 14)) return few;
    return many;
  }

  window.fgFormat = { el: el, number: number, percent: percent, duration: duration, when: when, plural: plural };
})();
