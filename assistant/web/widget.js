/* FullGPU glossary assistant widget: <script src=".../widget.js" data-api="https://api…"></script>
 * adds a chat button to the page. No framework, no build step. Every model or user text is put
 * into the page with textContent / createTextNode — never as HTML (XSS-safe). */
(function () {
  "use strict";
  var script = document.currentScript;
  if (!script || window.__fullgpuWidget) return;
  window.__fullgpuWidget = true;
  var scriptUrl = new URL(script.src, location.href);
  var API = (script.getAttribute("data-api") || scriptUrl.origin).replace(/\/+$/, "");
  var LINKS = (script.getAttribute("data-glossary") || API).replace(/\/+$/, "");
  var KEY = "fullgpu-assistant:" + API;
  var TOOL_LABELS = {
    vram_inference: "Видеопамять для инференса",
    vram_training: "Видеопамять для обучения",
    fit: "Поместится ли модель",
    cost: "Стоимость аренды"
  };

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === "text") node.textContent = attrs[k];
      else if (k === "onclick") node.addEventListener("click", attrs[k]);
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

  // ---- layout -------------------------------------------------------------------------------
  var css = el("link", { rel: "stylesheet", href: new URL("widget.css", scriptUrl).href });
  document.head.appendChild(css);
  var root = el("div", { class: "fg-root" });
  var toggle = el("button", {
    class: "fg-toggle", type: "button", "aria-expanded": "false", "aria-controls": "fg-panel",
    text: "Спросить ассистента"
  });
  var log = el("div", { class: "fg-log", role: "log", "aria-live": "polite", "aria-label": "Разговор" });
  var input = el("textarea", {
    class: "fg-input", rows: "2", maxlength: "2000", "aria-label": "Ваш вопрос",
    placeholder: "Например: сколько видеопамяти нужно для 70B в FP8?"
  });
  var send = el("button", { class: "fg-send", type: "submit", text: "Отправить" });
  var form = el("form", { class: "fg-form" }, [input, send]);
  var reset = el("button", { class: "fg-new", type: "button", text: "Новый разговор" });
  var close = el("button", { class: "fg-close", type: "button", "aria-label": "Закрыть", text: "×" });
  var panel = el("section", {
    id: "fg-panel", class: "fg-panel", role: "dialog", "aria-label": "Ассистент FullGPU", hidden: ""
  }, [
    el("header", { class: "fg-head" }, [el("h2", { text: "Ассистент FullGPU" }), reset, close]),
    log, form,
    el("p", { class: "fg-note", text: "Отвечает по глоссарию FullGPU, со ссылками на статьи." })
  ]);
  root.appendChild(panel);
  root.appendChild(toggle);
  document.body.appendChild(root);

  function setOpen(open) {
    panel.hidden = !open;
    toggle.setAttribute("aria-expanded", String(open));
    root.classList.toggle("fg-open", open);
    if (open) input.focus(); else toggle.focus();
  }
  toggle.addEventListener("click", function () { setOpen(panel.hidden); });
  close.addEventListener("click", function () { setOpen(false); });
  panel.addEventListener("keydown", function (e) { if (e.key === "Escape") setOpen(false); });
  input.addEventListener("keydown", function (e) {
    if (e.key === "Enter" && !e.shiftKey) { e.preventDefault(); form.requestSubmit(); }
  });

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

  function cell(tag, text) { return el(tag, { text: String(text) }); }

  function shown(value) {
    if (Array.isArray(value)) return value.join(", ");
    if (value === true) return "да";
    if (value === false) return "нет";
    return typeof value === "number" ? value.toLocaleString("ru-RU") : String(value);
  }

  function toolTable(call) {
    var rows = [];
    var args = call.arguments || {};
    var values = (call.result && call.result.values) || {};
    Object.keys(args).forEach(function (k) {
      if (args[k] !== null && args[k] !== false && args[k] !== 0) {
        rows.push(el("tr", { class: "fg-in" }, [cell("th", k), cell("td", shown(args[k]))]));
      }
    });
    Object.keys(values).forEach(function (k) {
      if (values[k] !== null) rows.push(el("tr", {}, [cell("th", k), cell("td", shown(values[k]))]));
    });
    var caption = el("caption", { text: "Расчёт: " + (TOOL_LABELS[call.name] || call.name) });
    return el("details", { class: "fg-tool" }, [
      el("summary", { text: (call.result && call.result.summary_ru) || caption.textContent }),
      el("table", {}, [caption, el("tbody", {}, rows)])
    ]);
  }

  function feedback(messageId, current) {
    var box = el("div", { class: "fg-feedback", role: "group", "aria-label": "Оценка ответа" });
    [[1, "✓ Полезно", "Полезно"], [-1, "✗ Не помогло", "Не помогло"]].forEach(function (opt) {
      var b = el("button", {
        type: "button", class: "fg-thumb", "aria-label": opt[2], title: opt[2],
        "aria-pressed": String(current === opt[0]), text: opt[1],
        "data-score": String(opt[0])
      });
      b.addEventListener("click", function () { rate(box, messageId, opt[0]); });
      box.appendChild(b);
    });
    return box;
  }

  function rate(box, messageId, score) {
    post("/v1/feedback", { message_id: messageId, score: score }).then(function (r) {
      if (!r.ok) return;
      Array.prototype.forEach.call(box.querySelectorAll("button"), function (b) {
        b.setAttribute("aria-pressed", String(b.getAttribute("data-score") === String(score)));
      });
      box.setAttribute("data-sent", String(score));
    });
  }

  function finish(view, answer, messageId, fb) {
    view.body.textContent = answer.answer;
    (answer.tool_calls || []).forEach(function (c) { view.item.appendChild(toolTable(c)); });
    var src = citations(answer.citations);
    if (src) view.item.appendChild(src);
    if (messageId) view.item.appendChild(feedback(messageId, fb));
    log.scrollTop = log.scrollHeight;
  }

  // ---- network ------------------------------------------------------------------------------
  function post(path, body) {
    return fetch(API + path, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body)
    });
  }

  function errorText(r, data) {
    if (data && data.error && data.error.message) return data.error.message;
    return "Не получилось связаться с ассистентом (" + r.status + "). Попробуйте ещё раз.";
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

  async function ask(text) {
    bubble("user", text);
    var view = bubble("assistant", "");
    view.item.setAttribute("aria-busy", "true");
    send.disabled = true;
    try {
      var r = await post("/v1/chat/stream", { message: text, session_id: session() });
      if (!r.ok || !r.body) {
        var data = await r.json().catch(function () { return null; });
        view.body.textContent = errorText(r, data);
        view.item.classList.add("fg-error");
        return;
      }
      var reader = r.body.getReader(), decoder = new TextDecoder(), buffer = "";
      for (;;) {
        var chunk = await reader.read();
        if (chunk.done) break;
        buffer = parseFrames(buffer + decoder.decode(chunk.value, { stream: true }), function (name, d) {
          if (name === "session") remember(d.session_id);
          else if (name === "delta") { view.body.appendChild(document.createTextNode(d.text)); log.scrollTop = log.scrollHeight; }
          else if (name === "done") finish(view, d, d.message_id, null);
          else if (name === "error") { view.body.textContent = d.error.message; view.item.classList.add("fg-error"); }
        });
      }
    } catch (e) {
      view.body.textContent = "Сеть недоступна. Проверьте подключение и попробуйте ещё раз.";
      view.item.classList.add("fg-error");
    } finally {
      view.item.removeAttribute("aria-busy");
      send.disabled = false;
    }
  }

  function session() { try { return localStorage.getItem(KEY); } catch (e) { return null; } }
  function remember(id) { try { localStorage.setItem(KEY, id); } catch (e) { /* private mode */ } }

  async function restore() {
    var id = session();
    if (!id) return greet();
    var r = await fetch(API + "/v1/sessions/" + encodeURIComponent(id)).catch(function () { return null; });
    if (!r || !r.ok) return greet();
    var data = await r.json();
    data.messages.forEach(function (m) {
      var view = bubble(m.role, m.content);
      if (m.role === "assistant" && m.answer) finish(view, m.answer, m.id, m.feedback);
    });
    if (!data.messages.length) greet();
  }

  function greet() {
    bubble("assistant", "Здравствуйте! Спросите про GPU, видеопамять, интерконнекты или стоимость аренды — отвечу по глоссарию FullGPU.");
  }

  form.addEventListener("submit", function (e) {
    e.preventDefault();
    var text = input.value.trim();
    if (!text || send.disabled) return;
    input.value = "";
    ask(text);
  });
  reset.addEventListener("click", function () {
    try { localStorage.removeItem(KEY); } catch (e) { /* ignore */ }
    log.textContent = "";
    greet();
    input.focus();
  });
  restore();
  if (script.hasAttribute("data-open")) setOpen(true);
})();
