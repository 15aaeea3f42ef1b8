/* FullGPU glossary assistant widget: <script src=".../widget.js" data-api="https://api…"></script>
 * adds a chat button to the page. No framework, no build step. Every model or user text is put
 * into the page with textContent / createTextNode — never as HTML (XSS-safe). Calculations are
 * drawn by display.js (loaded next to this file) from each tool call's `display` block. */
(function () {
  "use strict";
  var script = document.currentScript;
  if (!script || window.__fullgpuWidget) return;
  window.__fullgpuWidget = true;
  var scriptUrl = new URL(script.src, location.href);
  var API = (script.getAttribute("data-api") || scriptUrl.origin).replace(/\/+$/, "");
  var LINKS = (script.getAttribute("data-glossary") || API).replace(/\/+$/, "");
  var KEY = "fullgpu-assistant:" + API;
  var limit = 2000;  // replaced by the server's own limit (GET /widget.json)

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === "text") node.textContent = attrs[k];
      else node.setAttribute(k, attrs[k]);
    });
    (children || []).forEach(function (c) { if (c) node.appendChild(c); });
    return node;
  }

  function absolute(url) {
    if (/^https?:\/\//.test(url)) return url;
    return LINKS + (url.charAt(0) === "/" ? url : "/" + url);
  }

  function safeHref(url) {
    var u = new URL(absolute(url), location.href);
    return u.protocol === "http:" || u.protocol === "https:" ? u.href : "#";
  }

  function number(n) { return n.toLocaleString("ru-RU"); }

  function loadScript(name) {
    return new Promise(function (resolve) {
      if (window.fgDisplay) return resolve();
      var s = el("script", { src: new URL(name, scriptUrl).href });
      s.onload = s.onerror = function () { resolve(); };  // without it calculations are skipped
      document.head.appendChild(s);
    });
  }

  // ---- layout -------------------------------------------------------------------------------
  document.head.appendChild(el("link", { rel: "stylesheet", href: new URL("widget.css", scriptUrl).href }));
  var displayReady = loadScript("display.js");
  var root = el("div", { class: "fg-root" });
  var toggle = el("button", {
    class: "fg-toggle", type: "button", "aria-expanded": "false", "aria-controls": "fg-panel",
    text: "Спросить ассистента"
  });
  var log = el("div", { class: "fg-log", role: "log", "aria-live": "polite", "aria-label": "Разговор" });
  var input = el("textarea", {
    class: "fg-input", rows: "2", "aria-label": "Ваш вопрос", "aria-describedby": "fg-count fg-hint",
    placeholder: "Например: сколько памяти нужно для 70B в FP8?"
  });
  var send = el("button", { class: "fg-send", type: "submit", text: "Отправить" });
  var counter = el("span", { id: "fg-count", class: "fg-count" });
  var hint = el("p", { id: "fg-hint", class: "fg-hint-line", role: "status" });
  var forget = el("button", { class: "fg-forget", type: "button", text: "Удалить разговор", hidden: "" });
  var confirmBox = el("span", { class: "fg-confirm", role: "group", "aria-label": "Удалить разговор?", hidden: "" }, [
    el("span", { text: "Удалить этот разговор с сервера?" }),
    el("button", { class: "fg-forget fg-yes", type: "button", text: "Удалить" }),
    el("button", { class: "fg-forget fg-no", type: "button", text: "Отмена" })
  ]);
  var form = el("form", { class: "fg-form", novalidate: "" }, [
    el("div", { class: "fg-row" }, [input, send]), hint,
    el("div", { class: "fg-foot" }, [
      el("span", { class: "fg-note", text: "Отвечает по глоссарию FullGPU, со ссылками." }),
      counter
    ]),
    el("div", { class: "fg-manage" }, [forget, confirmBox])
  ]);
  var reset = el("button", { class: "fg-new", type: "button", text: "Новый разговор" });
  var close = el("button", { class: "fg-close", type: "button", "aria-label": "Закрыть", text: "×" });
  var panel = el("section", {
    id: "fg-panel", class: "fg-panel", role: "dialog", "aria-label": "Ассистент FullGPU", hidden: ""
  }, [el("header", { class: "fg-head" }, [el("h2", { text: "Ассистент FullGPU" }), reset, close]), log, form]);
  root.appendChild(panel);
  root.appendChild(toggle);
  document.body.appendChild(root);

  function setOpen(open) {
    panel.hidden = !open;
    toggle.setAttribute("aria-expanded", String(open));
    root.classList.toggle("fg-open", open);
    document.documentElement.classList.toggle("fg-widget-open", open);  // phone: page stays put
    if (open) { fit(); input.focus({ preventScroll: true }); } else toggle.focus({ preventScroll: true });
  }
  toggle.addEventListener("click", function () { setOpen(panel.hidden); });
  close.addEventListener("click", function () { setOpen(false); });
  panel.addEventListener("keydown", function (e) { if (e.key === "Escape") setOpen(false); });
  input.addEventListener("keydown", function (e) {
    if (e.key === "Enter" && !e.shiftKey) { e.preventDefault(); form.requestSubmit(); }
  });

  // ---- input feedback: counter against the server's limit, hints --------------------------
  function showHint(text, isError) {
    hint.textContent = text || "";
    hint.classList.toggle("fg-bad", !!isError);
  }

  function updateCounter() {
    var n = input.value.trim().length;
    counter.textContent = number(n) + " / " + number(limit);
    counter.classList.toggle("fg-bad", n > limit);
    if (n > limit) showHint("Слишком длинно: на " + number(n - limit) + " символов больше, чем принимает сервер.", true);
    else if (hint.classList.contains("fg-bad") || n) showHint("");
    fit();
  }

  /* Grow with the text (up to the CSS max-height); while empty, as tall as the placeholder needs,
   * so the example question is never cut off on a narrow screen. */
  function fit() {
    if (panel.hidden) return;  // a hidden textarea has no height to measure
    var empty = !input.value;
    if (empty) input.value = input.placeholder;
    input.style.height = "auto";
    input.style.height = input.scrollHeight + 2 + "px";
    if (empty) input.value = "";
  }
  window.addEventListener("resize", fit);
  input.addEventListener("input", updateCounter);

  fetch(API + "/widget.json").then(function (r) { return r.ok ? r.json() : null; }).then(function (c) {
    if (c && typeof c.max_message_chars === "number") limit = c.max_message_chars;
    updateCounter();
  }).catch(function () { updateCounter(); });

  // ---- messages -----------------------------------------------------------------------------
  function bubble(role, text) {
    var body = el("div", { class: "fg-text", text: text || "" });
    var item = el("article", { class: "fg-msg fg-" + role }, [
      el("span", { class: "fg-sr", text: role === "user" ? "Вы: " : "Ассистент: " }), body
    ]);
    log.appendChild(item);
    log.scrollTop = log.scrollHeight;
    return { item: item, body: body };
  }

  function citations(list) {
    if (!list || !list.length) return null;
    var items = list.map(function (c, i) {
      var a = el("a", { href: safeHref(c.url), target: "_blank", rel: "noopener", text: c.title });
      return el("li", {}, [document.createTextNode("[" + (i + 1) + "] "), a]);
    });
    return el("div", { class: "fg-sources" }, [el("span", { text: "Источники:" }), el("ol", {}, items)]);
  }

  function calculations(calls) {
    if (!window.fgDisplay) return [];
    return (calls || []).map(function (c) { return window.fgDisplay.render(c && c.display); });
  }

  // ---- feedback: thanks, and an optional comment after «Не помогло» -------------------------
  function feedback(messageId, current) {
    var box = el("div", { class: "fg-feedback", role: "group", "aria-label": "Оценка ответа" });
    var row = el("div", { class: "fg-thumbs" });
    [[1, "✓ Полезно", "Полезно"], [-1, "✗ Не помогло", "Не помогло"]].forEach(function (opt) {
      var b = el("button", {
        type: "button", class: "fg-thumb", "aria-label": opt[2], title: opt[2],
        "aria-pressed": String(current === opt[0]), text: opt[1], "data-score": String(opt[0])
      });
      b.addEventListener("click", function () { rate(box, messageId, opt[0]); });
      row.appendChild(b);
    });
    box.appendChild(row);
    box.appendChild(el("p", { class: "fg-thanks", role: "status" }));
    return box;
  }

  function rate(box, messageId, score) {
    post("/v1/feedback", { message_id: messageId, score: score }).then(function (r) {
      var thanks = box.querySelector(".fg-thanks");
      if (!r.ok) { thanks.textContent = "Не получилось сохранить оценку. Попробуйте ещё раз."; return; }
      Array.prototype.forEach.call(box.querySelectorAll(".fg-thumb"), function (b) {
        b.setAttribute("aria-pressed", String(b.getAttribute("data-score") === String(score)));
      });
      box.setAttribute("data-sent", String(score));
      thanks.textContent = score > 0 ? "Спасибо!" : "Спасибо! Что было не так? Можно не отвечать.";
      var old = box.querySelector(".fg-comment");
      if (old) old.remove();
      if (score < 0) box.appendChild(commentForm(box, messageId));
    }).catch(function () {
      box.querySelector(".fg-thanks").textContent = "Сеть недоступна — оценка не сохранена.";
    });
  }

  function commentForm(box, messageId) {
    var area = el("textarea", {
      class: "fg-input", rows: "2", maxlength: "2000", "aria-label": "Комментарий к ответу",
      placeholder: "Например: нужен был другой GPU"
    });
    var ok = el("button", { type: "submit", class: "fg-thumb", text: "Отправить комментарий" });
    var f = el("form", { class: "fg-comment" }, [area, ok]);
    f.addEventListener("submit", function (e) {
      e.preventDefault();
      var comment = area.value.trim();
      if (!comment) { area.focus(); return; }
      ok.disabled = true;
      post("/v1/feedback", { message_id: messageId, score: -1, comment: comment }).then(function (r) {
        if (!r.ok) throw new Error(String(r.status));
        f.remove();
        box.setAttribute("data-comment", "sent");
        box.querySelector(".fg-thanks").textContent = "Спасибо, комментарий передан редакторам глоссария.";
      }).catch(function () {
        ok.disabled = false;
        box.querySelector(".fg-thanks").textContent = "Не получилось отправить комментарий. Попробуйте ещё раз.";
      });
    });
    setTimeout(function () { area.focus({ preventScroll: true }); log.scrollTop = log.scrollHeight; }, 0);
    return f;
  }

  function finish(view, answer, messageId, fb) {
    view.body.textContent = answer.answer;
    return displayReady.then(function () {
      calculations(answer.tool_calls).forEach(function (node) { if (node) view.item.appendChild(node); });
      var src = citations(answer.citations);
      if (src) view.item.appendChild(src);
      if (messageId) view.item.appendChild(feedback(messageId, fb));
      log.scrollTop = log.scrollHeight;
    });
  }

  // ---- network ------------------------------------------------------------------------------
  function post(path, body) {
    return fetch(API + path, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body)
    });
  }

  function errorText(r, data) {
    if (data && data.error && data.error.message) return data.error.message;
    if (r.status === 429) return "Слишком много запросов. Подождите немного и повторите.";
    return "Не получилось связаться с ассистентом (ошибка " + r.status + "). Попробуйте ещё раз.";
  }

  /* 429: the send button counts down the server's Retry-After before it can be pressed again. */
  var waitUntil = 0;
  function holdSend(seconds) {
    waitUntil = Date.now() + seconds * 1000;
    var tick = function () {
      var left = Math.ceil((waitUntil - Date.now()) / 1000);
      if (left <= 0) { send.textContent = "Отправить"; send.disabled = false; return; }
      send.disabled = true;
      send.textContent = "Через " + left + " с";
      setTimeout(tick, 500);
    };
    tick();
  }

  function parseFrames(buffer, onEvent) {
    var parts = buffer.split("\n\n");
    var rest = parts.pop();
    parts.forEach(function (frame) {
      var name = "message", data = [];
      frame.split("\n").forEach(function (line) {
        if (line.indexOf("event: ") === 0) name = line.slice(7);
        else if (line.indexOf("data: ") === 0) data.push(line.slice(6));
      });
      if (data.length) onEvent(name, JSON.parse(data.join("\n")));
    });
    return rest;
  }

  /* A rejected question (too long, rate-limited, offline) goes back into the input with the
   * server's reason in the chat, so nothing typed is lost. */
  function rejected(mine, view, text, message) {
    mine.item.remove();
    view.body.textContent = message;
    view.item.classList.add("fg-error");
    if (!input.value) { input.value = text; updateCounter(); }
    showHint("Текст вопроса остался в поле ввода.");
  }

  async function ask(text) {
    var mine = bubble("user", text);
    var view = bubble("assistant", "");
    view.item.setAttribute("aria-busy", "true");
    send.disabled = true;
    var pending = null;
    try {
      var r = await post("/v1/chat/stream", { message: text, session_id: session() });
      if (!r.ok || !r.body) {
        var data = await r.json().catch(function () { return null; });
        rejected(mine, view, text, errorText(r, data));
        var wait = parseInt(r.headers.get("Retry-After") || "", 10);
        if (r.status === 429 && wait > 0) holdSend(wait);
        return;
      }
      var reader = r.body.getReader(), decoder = new TextDecoder(), buffer = "";
      for (;;) {
        var chunk = await reader.read();
        if (chunk.done) break;
        buffer = parseFrames(buffer + decoder.decode(chunk.value, { stream: true }), function (name, d) {
          if (name === "session") remember(d.session_id);
          else if (name === "delta") { view.body.appendChild(document.createTextNode(d.text)); log.scrollTop = log.scrollHeight; }
          else if (name === "done") pending = finish(view, d, d.message_id, null);
          else if (name === "error") { view.body.textContent = d.error.message; view.item.classList.add("fg-error"); }
        });
      }
      if (pending) await pending;
    } catch (e) {
      rejected(mine, view, text, "Сеть недоступна. Проверьте подключение и попробуйте ещё раз.");
    } finally {
      view.item.removeAttribute("aria-busy");
      if (Date.now() >= waitUntil) send.disabled = false;
    }
  }

  function session() { try { return localStorage.getItem(KEY); } catch (e) { return null; } }
  function remember(id) {
    try { localStorage.setItem(KEY, id); } catch (e) { /* private mode */ }
    forget.hidden = !confirmBox.hidden;
  }

  // ---- «Удалить разговор»: asked once inline, then deleted on the server for good ---------
  function startOver() {
    try { localStorage.removeItem(KEY); } catch (e) { /* ignore */ }
    log.textContent = "";
    forget.hidden = true;
    confirmBox.hidden = true;
    greet();
  }
  forget.addEventListener("click", function () {
    forget.hidden = true;
    confirmBox.hidden = false;
    confirmBox.querySelector(".fg-no").focus();
  });
  confirmBox.querySelector(".fg-no").addEventListener("click", function () {
    confirmBox.hidden = true;
    forget.hidden = !session();
    forget.focus();
  });
  confirmBox.querySelector(".fg-yes").addEventListener("click", function () {
    var id = session();
    if (!id) { startOver(); return; }
    fetch(API + "/v1/sessions/" + encodeURIComponent(id), { method: "DELETE" }).then(function (r) {
      if (!r.ok && r.status !== 404) throw new Error(String(r.status));  // 404: already gone
      startOver();
      showHint("Разговор удалён: на сервере его больше нет.");
      input.focus();
    }).catch(function () {
      confirmBox.hidden = true;
      forget.hidden = false;
      showHint("Не получилось удалить разговор. Попробуйте ещё раз.", true);
    });
  });

  async function restore() {
    var id = session();
    if (!id) return greet();
    var r = await fetch(API + "/v1/sessions/" + encodeURIComponent(id)).catch(function () { return null; });
    if (!r || !r.ok) return greet();
    var data = await r.json();
    forget.hidden = false;
    for (var i = 0; i < data.messages.length; i++) {
      var m = data.messages[i], view = bubble(m.role, m.content);
      if (m.role === "assistant" && m.answer) await finish(view, m.answer, m.id, m.feedback);
    }
    if (!data.messages.length) greet();
  }

  function greet() {
    bubble("assistant", "Здравствуйте! Спросите про GPU, видеопамять, интерконнекты или стоимость аренды — отвечу по глоссарию FullGPU.");
  }

  form.addEventListener("submit", function (e) {
    e.preventDefault();
    if (send.disabled) return;
    var text = input.value.trim();
    if (!text) {
      showHint("Напишите вопрос — например: «что такое NVLink?»", true);
      input.focus();
      return;
    }
    input.value = "";
    updateCounter();
    ask(text);
  });
  reset.addEventListener("click", function () {
    startOver();
    input.focus();
  });
  restore();
  if (script.hasAttribute("data-open")) setOpen(true);
})();
