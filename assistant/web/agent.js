/* Support-agent page: customer message (+ pasted thread) → POST /v1/suggest → handoff verdict,
 * confidence in words, draft, evidence, calculations (display.js). All server text is inserted
 * with textContent. The key lives in sessionStorage only and is sent as a header, never a URL. */
(function () {
  "use strict";
  var $ = function (id) { return document.getElementById(id); };
  var STORE = "fg-agent-key";
  var key = $("key");
  try { key.value = sessionStorage.getItem(STORE) || ""; } catch (e) { /* storage disabled */ }
  var LEVELS = { high: "высокая", medium: "средняя", low: "низкая" };
  // used only when the server sends no `confidence_text`
  var LEVEL_TEXT = {
    high: "Черновик опирается на статьи глоссария или расчёт калькулятора — проверьте и отправляйте.",
    medium: "Сверьте черновик с источниками ниже перед отправкой.",
    low: "Глоссарий покрывает вопрос слабо — лучше ответить самому или передать специалисту."
  };
  var CUSTOMER = /^(клиент|клиентка|покупатель|пользователь|customer|client|user)$/i;
  var AGENT = /^(оператор|агент|поддержка|саппорт|менеджер|agent|operator|support)$/i;
  var SPEAKER = /^\s*(?:\[[^\]]{0,40}\]\s*)?(?:\d{1,2}:\d{2}(?::\d{2})?\s*)?([A-Za-zА-Яа-яЁё]+)\s*(?::|—|–|-)\s*(.*)$/;
  var MAX_TURNS = 50;

  function el(tag, text, cls) {
    var n = document.createElement(tag);
    if (text !== undefined) n.textContent = text;
    if (cls) n.className = cls;
    return n;
  }

  function show(id, on) { $(id).hidden = !on; }

  /* «Клиент: …» / «Оператор: …» lines (a line without a speaker continues the previous reply)
   * → {turns, warning}. Text before the first speaker cannot be attributed and is reported. */
  function parseThread(raw) {
    var turns = [], skipped = 0;
    raw.split("\n").forEach(function (line) {
      var m = line.match(SPEAKER);
      var role = m && (CUSTOMER.test(m[1]) ? "customer" : AGENT.test(m[1]) ? "agent" : null);
      if (role) turns.push({ role: role, content: m[2].trim() });
      else if (turns.length && line.trim()) turns[turns.length - 1].content += "\n" + line.trim();
      else if (line.trim()) skipped += 1;
    });
    turns = turns.filter(function (t) { return t.content; });
    var warning = "";
    if (raw.trim() && !turns.length) {
      warning = "Переписку не удалось разобрать: ни одна строка не начинается с «Клиент:» или " +
        "«Оператор:». Черновик подготовлен без учёта переписки.";
    } else if (skipped) {
      warning = "Начало переписки (" + skipped + " стр.) без «Клиент:» или «Оператор:» пропущено.";
    }
    if (turns.length > MAX_TURNS) {
      turns = turns.slice(-MAX_TURNS);
      warning += (warning ? " " : "") + "Учтены последние " + MAX_TURNS + " реплик.";
    }
    return { turns: turns, warning: warning };
  }

  /* Lines we could read go as structured turns; a paste we could not read (a helpdesk export
   * such as «Иван Петров, 10:31 …») goes as `thread_text` for the server's own parser. */
  function request(thread) {
    var raw = $("thread").value;
    if (thread.warning && raw.trim()) return { message: $("message").value, thread_text: raw };
    return { message: $("message").value, thread: thread.turns };
  }

  /* «Передать специалисту: оплата и инциденты» as the banner's heading, the reason under it
   * (a trailing «Передать специалисту (…).» in the reason moves up into the heading). */
  function verdict(d) {
    var box = $("handoff");
    box.textContent = "";
    if (d.handoff) {
      var reason = typeof d.handoff_reason === "string" ? d.handoff_reason.trim() : "";
      var team = reason.match(/\s*Передать специалисту\s*(?:\(([^)]*)\))?\.?$/);
      if (team) reason = reason.slice(0, team.index).trim();
      var head = "Передать специалисту" + (team && team[1] ? ": " + team[1] : reason ? ":" : "");
      box.appendChild(el("strong", head));
      if (reason) box.appendChild(el("p", reason));
    }
    show("handoff", !!d.handoff);
  }

  var TONES = { ok: " fg-good", warn: " fg-warn", info: "" };

  /* The server's Russian badges when it sends them; otherwise the confidence level alone. */
  function badges(d) {
    var box = $("badges");
    box.textContent = "";
    var level = LEVELS[d.confidence] ? d.confidence : "medium";
    var given = (d.badges || []).filter(function (b) {  // the banner already says «передать»
      return b && typeof b.text === "string" && !(d.handoff && /^Передать специалисту/.test(b.text));
    });
    if (!given.length) {
      given = [{ text: "Уверенность: " + LEVELS[level], tone: { high: "ok", low: "warn" }[level] || "info" }];
    }
    given.forEach(function (b) { box.appendChild(el("span", b.text, "fg-badge" + (TONES[b.tone] || ""))); });
    var words = typeof d.confidence_text === "string" && d.confidence_text.trim();
    $("confidence").textContent = words || LEVEL_TEXT[level];
    show("confidence", true);
  }

  function link(title, url) {
    var a = el("a", title);
    a.href = url;
    a.target = "_blank";
    a.rel = "noopener";
    return a;
  }

  /* Quoted sentences per source; a cited entry without quotes is still listed. «Не покрывает»
   * only when nothing at all was cited — never next to a draft with [1], [2]. */
  function evidence(d) {
    var box = $("evidence");
    box.textContent = "";
    var seen = {};
    (d.evidence || []).forEach(function (e) {
      seen[e.url] = true;
      box.appendChild(el("h3")).appendChild(link(e.title, e.url));
      (e.sentences || []).forEach(function (s) { box.appendChild(el("blockquote", s)); });
    });
    (d.citations || []).forEach(function (c) {
      if (!seen[c.url]) box.appendChild(el("h3")).appendChild(link(c.title, c.url));
      seen[c.url] = true;
    });
    var empty = !box.childNodes.length;
    if (empty && !d.handoff && !(d.calculations || []).length) {
      box.appendChild(el("p", "Глоссарий этот вопрос не покрывает."));
    }
    show("evidence-box", !!box.childNodes.length);
  }

  function calcs(list) {
    var box = $("calcs");
    box.textContent = "";
    (list || []).forEach(function (c) {
      var node = window.fgDisplay && window.fgDisplay.render(c && c.display);
      if (node) box.appendChild(node);
    });
    show("calcs-box", !!box.childNodes.length);
  }

  function warn(text) {
    $("thread-warning").textContent = text || "";
    show("thread-warning", !!text);
  }

  function clear() {
    ["handoff", "confidence", "evidence-box", "calcs-box"].forEach(function (id) { show(id, false); });
    $("badges").textContent = "";
    $("draft").textContent = "";
    $("copy").disabled = true;
    show("copy", true);
  }

  $("ask").addEventListener("submit", async function (e) {
    e.preventDefault();
    try { sessionStorage.setItem(STORE, key.value); } catch (err) { /* storage disabled */ }
    var thread = parseThread($("thread").value);
    clear();
    warn("");
    $("result").removeAttribute("data-state");
    $("status").textContent = "Готовлю черновик…";
    $("submit").disabled = true;
    $("result").setAttribute("aria-busy", "true");
    var r = await fetch("/v1/suggest", {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-API-Key": key.value },
      body: JSON.stringify(request(thread))
    }).catch(function () { return null; });
    var d = r ? await r.json().catch(function () { return null; }) : null;
    $("submit").disabled = false;
    $("result").setAttribute("aria-busy", "false");
    if (!r || !r.ok || !d) {
      $("status").textContent = (d && d.error && d.error.message) || "Сервер недоступен. Попробуйте ещё раз.";
      $("result").setAttribute("data-state", "error");
      return;
    }
    $("result").setAttribute("data-state", "done");
    $("status").textContent = "";
    verdict(d);
    // the server's verdict on a thread it parsed itself; ours when it did not (older server)
    warn("thread_warning" in d ? String(d.thread_warning || "").trim() : thread.warning);
    badges(d);
    // a handoff without a reply to send: the banner says it all, no text to copy
    var none = d.handoff && !(d.calculations || []).length && /^Черновик не нужен/.test(d.draft || "");
    $("draft").textContent = none ? "Черновик не нужен: клиенту ответит специалист." : d.draft;
    $("draft").classList.toggle("fg-muted", none);
    $("copy").disabled = none || !d.draft;
    show("copy", !none);
    evidence(d);
    calcs(d.calculations);
    // one column on a phone: the verdict is below the form, bring it into view
    if (window.matchMedia("(max-width: 800px)").matches) $("result").scrollIntoView({ block: "start" });
  });

  $("forget").addEventListener("click", function () {
    try { sessionStorage.removeItem(STORE); } catch (e) { /* storage disabled */ }
    key.value = "";
    key.focus();
  });

  $("copy").addEventListener("click", function () {
    var text = $("draft").textContent;
    var done = function () { $("copy").textContent = "Скопировано ✓"; setTimeout(function () { $("copy").textContent = "Скопировать черновик"; }, 1500); };
    if (navigator.clipboard) navigator.clipboard.writeText(text).then(done);
    else { var t = el("textarea", text); document.body.appendChild(t); t.select(); document.execCommand("copy"); t.remove(); done(); }
  });
})();
