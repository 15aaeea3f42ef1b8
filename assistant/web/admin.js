/* The operations console (/admin): sign in with the console key (POST once; the server answers
 * with an HttpOnly cookie, the page keeps nothing), then the overview (admin-overview.js, its
 * charts by charts.js), content gaps, conversations with search and filters, one conversation
 * in full, and the export. Every server text is inserted with textContent (console-format.js);
 * codes are shown only as the Russian labels the server sends next to them. */
(function () {
  "use strict";
  var $ = function (id) { return document.getElementById(id); };
  var API = "/admin/api";
  var meta = null;
  var state = { tab: "overview", offset: 0, open: null, loaded: {} };

  var f = window.fgFormat;
  var el = f.el, number = f.number, duration = f.duration, plural = f.plural;
  function when(iso) { return f.when(iso, meta && meta.timezone); }

  // ---- talking to the server ---------------------------------------------------------------
  async function call(path, options) {
    var r = await fetch(API + path, Object.assign({ credentials: "same-origin" }, options || {}))
      .catch(function () { return null; });
    var body = r ? await r.json().catch(function () { return null; }) : null;
    if (r && r.status === 401 && path !== "/session") { showSignIn("Сессия закончилась: войдите снова."); }
    if (!r || !r.ok) {
      var message = (body && body.error && body.error.message) || "Сервер недоступен. Попробуйте ещё раз.";
      var error = new Error(message);
      error.status = r ? r.status : 0;
      error.code = body && body.error && body.error.code;
      throw error;
    }
    return body;
  }

  function query(extra) {
    var params = new URLSearchParams({ from: $("from").value, to: $("to").value });
    Object.keys(extra || {}).forEach(function (k) { if (extra[k] !== "" && extra[k] !== null) params.set(k, extra[k]); });
    return "?" + params.toString();
  }

  // ---- signing in and out -------------------------------------------------------------------
  function showSignIn(message) {
    $("console").hidden = true;
    $("sign-out").hidden = true;
    $("sign-in").hidden = false;
    $("sign-in-status").textContent = message || "";
    $("key").focus();
  }

  function showOff(message) {
    $("sign-in").hidden = true;
    $("console").hidden = true;
    $("off").hidden = false;
    $("off").textContent = message;
  }

  $("sign-in").addEventListener("submit", async function (e) {
    e.preventDefault();
    var key = $("key");
    $("sign-in-button").disabled = true;
    $("sign-in-status").textContent = "Проверяю ключ…";
    try {
      await call("/session", {
        method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ key: key.value })
      });
      key.value = "";  // the cookie carries the session from here on
      $("sign-in-status").textContent = "";
      await start();
    } catch (err) {
      if (err.code === "console_disabled") return showOff(err.message);
      $("sign-in-status").textContent = err.message;
    } finally {
      $("sign-in-button").disabled = false;
    }
  });

  $("sign-out").addEventListener("click", async function () {
    await call("/session", { method: "DELETE" }).catch(function () { return null; });
    state.loaded = {};
    showSignIn("Вы вышли из консоли.");
  });

  // ---- period, channel, tabs -----------------------------------------------------------------
  function isoDay(d) {
    return d.toLocaleDateString("sv-SE", { timeZone: meta.timezone });  // YYYY-MM-DD
  }

  function preset(days) {
    var to = new Date($("to").value + "T12:00:00Z");
    if (isNaN(to)) to = new Date(meta.last + "T12:00:00Z");
    var today = new Date(isoDay(new Date()) + "T12:00:00Z");
    if (to > today) to = today;
    var from = new Date(to.getTime() - (days - 1) * 86400000);
    $("from").value = from.toISOString().slice(0, 10);
    $("to").value = to.toISOString().slice(0, 10);
    markPreset();
  }

  function markPreset() {
    var span = Math.round((new Date($("to").value) - new Date($("from").value)) / 86400000) + 1;
    Array.prototype.forEach.call(document.querySelectorAll(".fc-presets button"), function (b) {
      b.setAttribute("aria-pressed", String(Number(b.getAttribute("data-days")) === span));
    });
  }

  function options(select, items) {
    items.forEach(function (o) { var opt = el("option", o.label); opt.value = o.value; select.appendChild(opt); });
  }

  function selectTab(name) {
    state.tab = name;
    ["overview", "gaps", "conversations", "export"].forEach(function (t) {
      $("tab-" + t).setAttribute("aria-selected", String(t === name));
      $(t).hidden = t !== name;
    });
    if (!state.loaded[name]) load(name);
  }

  function reload() {
    state.loaded = {};
    state.open = null;
    load(state.tab);
  }

  function load(name) {
    state.loaded[name] = true;
    if (name === "overview") return loadOverview();
    if (name === "gaps") return loadGaps();
    if (name === "conversations") return loadConversations(false);
    return updateExport();
  }

  // ---- overview ------------------------------------------------------------------------------
  var lastOverview = null;

  async function loadOverview() {
    var panel = $("overview");
    panel.setAttribute("aria-busy", "true");
    try {
      var o = await call("/overview" + query({ channel: $("channel").value }));
      lastOverview = o;
      fgOverview.render(o);
    } catch (err) {
      $("period-status").textContent = err.message;
    } finally {
      panel.setAttribute("aria-busy", "false");
    }
  }

  var resizing = null;
  window.addEventListener("resize", function () {
    clearTimeout(resizing);
    resizing = setTimeout(function () { if (lastOverview && state.tab === "overview") fgOverview.redraw(lastOverview); }, 150);
  });

  // ---- content gaps ----------------------------------------------------------------------------
  function score(v) { return v.toLocaleString("ru-RU", { minimumFractionDigits: 2, maximumFractionDigits: 2 }); }

  function gapCard(g, i) {
    var li = el("li", null, "fc-card fc-gap");
    var head = el("h3");
    head.appendChild(el("span", (i + 1) + ". ", "fc-rank"));
    head.appendChild(document.createTextNode("«" + g.question + "»"));
    li.appendChild(head);
    var facts = [number(g.count) + " " + plural(g.count, "раз", "раза", "раз")];
    if (g.declined) facts.push("отказов: " + number(g.declined));
    if (g.disliked) facts.push("«не помогло»: " + number(g.disliked));
    li.appendChild(el("p", facts.join(" · "), "fc-gap-facts"));
    li.appendChild(el("p", g.action, "fc-gap-action"));
    if (g.examples.length) {
      li.appendChild(el("h4", "Как ещё спрашивали"));
      var ex = el("ul", null, "fc-examples");
      g.examples.forEach(function (w) { ex.appendChild(el("li", "«" + w + "»")); });
      li.appendChild(ex);
    }
    if (g.comments.length) {
      li.appendChild(el("h4", "Что написали после «Не помогло»"));
      var cm = el("ul", null, "fc-examples");
      g.comments.forEach(function (c) { cm.appendChild(el("li", "«" + c + "»")); });
      li.appendChild(cm);
    }
    li.appendChild(el("h4", "Ближайшие статьи"));
    var near = el("ul", null, "fc-nearest");
    g.nearest.forEach(function (n) {
      var item = el("li"), a = el("a", n.title);
      a.href = n.url;
      a.target = "_blank";
      a.rel = "noopener";
      item.appendChild(a);
      item.appendChild(el("span", "близость " + score(n.score), "fc-score"));
      near.appendChild(item);
    });
    li.appendChild(near);
    if (g.missing_words.length) {
      li.appendChild(el("h4", "Слов нет в глоссарии"));
      var words = el("p", null, "fc-words");
      g.missing_words.forEach(function (w) { words.appendChild(el("span", w, "fg-badge fg-warn")); });
      li.appendChild(words);
    }
    return li;
  }

  async function loadGaps() {
    var list = $("gap-list"), status = $("gaps-status");
    list.textContent = "";
    status.textContent = "Группирую вопросы…";
    try {
      var gaps = await call("/gaps" + query());
      status.textContent = gaps.length
        ? "Групп: " + number(gaps.length) + ". Сверху — то, о чём спрашивали чаще всего."
        : "За этот период не было ни отказов, ни оценок «не помогло».";
      gaps.forEach(function (g, i) { list.appendChild(gapCard(g, i)); });
    } catch (err) {
      status.textContent = err.message;
    }
  }

  // ---- conversations ---------------------------------------------------------------------------
  var TONE = { answered: "fg-good", declined: "fg-warn", handoff: "fg-warn", clarify: "" };

  function badge(text, tone) { return el("span", text, "fg-badge" + (tone ? " " + tone : "")); }

  function listItem(c) {
    var li = el("li");
    var button = el("button", null, "fc-row");
    button.type = "button";
    var top = el("span", null, "fc-row-top");
    top.appendChild(el("span", when(c.last), "fc-when"));
    top.appendChild(el("span", c.channel_label, "fc-channel"));
    top.appendChild(el("span", number(c.messages) + " " + plural(c.messages, "сообщение", "сообщения", "сообщений"), "fc-count"));
    button.appendChild(top);
    button.appendChild(el("span", c.first_question || "(без текста)", "fc-question"));
    var badges = el("span", null, "fc-badges");
    c.outcomes.forEach(function (o) { badges.appendChild(badge(o.label + (o.count > 1 ? " ×" + o.count : ""), TONE[o.outcome])); });
    if (c.thumbs_up) badges.appendChild(badge("✓ полезно" + (c.thumbs_up > 1 ? " ×" + c.thumbs_up : ""), "fg-good"));
    if (c.thumbs_down) badges.appendChild(badge("✗ не помогло" + (c.thumbs_down > 1 ? " ×" + c.thumbs_down : ""), "fg-warn"));
    button.appendChild(badges);
    button.addEventListener("click", function () { openConversation(c.id, li); });
    li.appendChild(button);
    return li;
  }

  async function loadConversations(more) {
    var list = $("conversation-list"), status = $("list-status");
    if (!more) { list.textContent = ""; state.offset = 0; closeDetail(); }
    status.textContent = "Ищу…";
    try {
      var page = await call("/conversations" + query({
        q: $("q").value.trim(), channel: $("channel").value, outcome: $("outcome").value,
        feedback: $("feedback").value, offset: state.offset
      }));
      page.items.forEach(function (c) { list.appendChild(listItem(c)); });
      state.offset = page.offset + page.items.length;
      status.textContent = page.total
        ? "Показано " + number(state.offset) + " из " + number(page.total) + " " + plural(page.total, "разговора", "разговоров", "разговоров") + "."
        : "Ничего не нашлось: измените поиск или фильтры.";
      $("more").hidden = state.offset >= page.total;
    } catch (err) {
      status.textContent = err.message;
    }
  }

  function meter(parts) { return parts.filter(Boolean).join(" · "); }

  function assistantTurn(t) {
    var box = el("div", null, "fc-turn fc-assistant");
    box.appendChild(el("span", "Ассистент · " + when(t.time), "fc-who"));
    box.appendChild(el("div", t.text, "fc-text"));
    var badges = el("p", null, "fc-badges");
    if (t.outcome_label) badges.appendChild(badge(t.outcome_label, TONE[t.outcome]));
    if (t.route_label) badges.appendChild(badge(t.route_label));
    if (t.feedback) badges.appendChild(badge("Оценка: " + t.feedback, t.feedback === "полезно" ? "fg-good" : "fg-warn"));
    box.appendChild(badges);
    if (t.comment) box.appendChild(el("p", "Комментарий: «" + t.comment + "»", "fc-comment"));
    if (t.understood) box.appendChild(el("p", "Понял вопрос как: «" + t.understood + "»", "fc-note"));
    if (t.handoff_reason) box.appendChild(el("p", "Передано: " + t.handoff_reason, "fc-note"));
    (t.calculations || []).forEach(function (d) {
      var node = window.fgDisplay && window.fgDisplay.render(d);
      if (node) box.appendChild(node);
    });
    if (t.sources.length) {
      var src = el("div", null, "fg-sources");
      src.appendChild(el("span", "Источники:"));
      var ol = el("ol");
      t.sources.forEach(function (s, i) {
        var li = el("li", "[" + (i + 1) + "] "), a = el("a", s.title);
        a.href = s.url;
        a.target = "_blank";
        a.rel = "noopener";
        li.appendChild(a);
        ol.appendChild(li);
      });
      src.appendChild(ol);
      box.appendChild(src);
    }
    var facts = el("dl", null, "fc-facts");
    [["Генератор", t.generator_label], ["Запасной ответ", t.fallback_label],
      ["Уверенность", t.confidence_label],
      ["Время ответа", t.total_ms === null ? "" : meter([duration(t.total_ms), t.engine_ms === null ? "" : "движок " + duration(t.engine_ms)])]
    ].forEach(function (f) {
      if (!f[1]) return;
      facts.appendChild(el("dt", f[0]));
      facts.appendChild(el("dd", f[1]));
    });
    box.appendChild(facts);
    return box;
  }

  function userTurn(t) {
    var box = el("div", null, "fc-turn fc-user");
    box.appendChild(el("span", "Клиент · " + when(t.time), "fc-who"));
    box.appendChild(el("div", t.text, "fc-text"));
    return box;
  }

  function closeDetail() {
    state.open = null;
    $("detail").hidden = true;
    $("conversations").classList.remove("fc-reading");
    Array.prototype.forEach.call(document.querySelectorAll(".fc-row[aria-current]"), function (b) { b.removeAttribute("aria-current"); });
  }

  async function openConversation(id, li) {
    state.open = { id: id, li: li };
    Array.prototype.forEach.call(document.querySelectorAll(".fc-row[aria-current]"), function (b) { b.removeAttribute("aria-current"); });
    li.querySelector(".fc-row").setAttribute("aria-current", "true");
    var detail = $("detail");
    detail.hidden = false;
    detail.setAttribute("aria-busy", "true");
    $("conversations").classList.add("fc-reading");
    $("turns").textContent = "";
    $("detail-head").textContent = "";
    $("confirm").hidden = true;
    $("delete").hidden = false;
    $("delete-status").textContent = "";
    try {
      var c = await call("/conversations/" + encodeURIComponent(id));
      var head = $("detail-head");
      head.appendChild(el("h2", "Разговор · " + c.channel_label));
      head.appendChild(el("p", "Начат " + when(c.started) + " · " + number(c.turns.length) + " " + plural(c.turns.length, "сообщение", "сообщения", "сообщений"), "fc-help"));
      c.turns.forEach(function (t) { $("turns").appendChild(t.role === "assistant" ? assistantTurn(t) : userTurn(t)); });
      if (window.matchMedia("(max-width: 900px)").matches) detail.scrollIntoView({ block: "start" });
    } catch (err) {
      $("turns").appendChild(el("p", err.message, "fc-status"));
    } finally {
      detail.setAttribute("aria-busy", "false");
    }
  }

  $("back").addEventListener("click", function () {
    var li = state.open && state.open.li;
    closeDetail();
    if (li) li.querySelector(".fc-row").focus();
  });
  $("delete").addEventListener("click", function () {
    $("delete").hidden = true;
    $("confirm").hidden = false;
    $("confirm-no").focus();
  });
  $("confirm-no").addEventListener("click", function () {
    $("confirm").hidden = true;
    $("delete").hidden = false;
  });
  $("confirm-yes").addEventListener("click", async function () {
    if (!state.open) return;
    var open = state.open;
    try {
      await call("/conversations/" + encodeURIComponent(open.id), { method: "DELETE" });
      open.li.remove();
      closeDetail();
      state.loaded.overview = state.loaded.gaps = false;
      $("list-status").textContent = "Разговор удалён: его больше нет ни в консоли, ни в выгрузке.";
    } catch (err) {
      $("delete-status").textContent = err.message;
    }
  });

  $("filters").addEventListener("submit", function (e) { e.preventDefault(); loadConversations(false); });
  $("more").addEventListener("click", function () { loadConversations(true); });

  // ---- export ----------------------------------------------------------------------------------
  function updateExport() {
    var format = document.querySelector('input[name="format"]:checked').value;
    $("download").href = API + "/export" + query({ format: format });
    $("export-note").textContent = "Период: " + fgCharts.dayLabel($("from").value) + " — " +
      fgCharts.dayLabel($("to").value) + ", время " + meta.timezone_label + "." +
      (meta.retention_days ? " Сервер хранит разговоры " + number(meta.retention_days) + " " + plural(meta.retention_days, "день", "дня", "дней") + "." : "");
  }
  Array.prototype.forEach.call(document.querySelectorAll('input[name="format"]'), function (r) {
    r.addEventListener("change", updateExport);
  });

  // ---- start -----------------------------------------------------------------------------------
  $("period").addEventListener("submit", function (e) {
    e.preventDefault();
    $("period-status").textContent = "";
    if (!$("from").value || !$("to").value || $("from").value > $("to").value) {
      $("period-status").textContent = "Выберите начало и конец периода (начало — не позже конца).";
      return;
    }
    markPreset();
    reload();
  });
  Array.prototype.forEach.call(document.querySelectorAll(".fc-presets button"), function (b) {
    b.addEventListener("click", function () { preset(Number(b.getAttribute("data-days"))); reload(); });
  });
  $("channel").addEventListener("change", reload);
  ["overview", "gaps", "conversations", "export"].forEach(function (t) {
    $("tab-" + t).addEventListener("click", function () { selectTab(t); });
  });

  async function start() {
    meta = await call("/meta");
    if (!$("channel").options.length || $("channel").options.length === 1) {
      options($("channel"), meta.channels);
      options($("outcome"), meta.outcomes);
      options($("feedback"), meta.feedback);
    }
    if (!$("from").value) { $("from").value = meta.first; $("to").value = meta.last; }
    markPreset();
    $("sign-in").hidden = true;
    $("off").hidden = true;
    $("console").hidden = false;
    $("sign-out").hidden = false;
    state.loaded = {};
    selectTab(state.tab);
  }

  call("/session").then(start).catch(function (err) {
    if (err.code === "console_disabled") showOff(err.message);
    else if (err.status === 429) showSignIn(err.message);
    else showSignIn("");
  });
})();
