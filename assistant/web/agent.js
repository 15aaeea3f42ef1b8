/* Support-agent page: customer message (+ thread) → POST /v1/suggest → draft, evidence, calculations.
 * All server text is inserted with textContent. The key lives in sessionStorage only. */
(function () {
  "use strict";
  var $ = function (id) { return document.getElementById(id); };
  var key = $("key");
  key.value = sessionStorage.getItem("fg-agent-key") || "";

  function el(tag, text, cls) {
    var n = document.createElement(tag);
    if (text !== undefined) n.textContent = text;
    if (cls) n.className = cls;
    return n;
  }

  function thread() {
    return $("thread").value.split("\n").map(function (line) {
      var m = line.match(/^\s*(клиент|оператор|customer|agent)\s*:\s*(.+)$/i);
      if (!m) return null;
      var who = m[1].toLowerCase();
      return { role: who === "клиент" || who === "customer" ? "customer" : "agent", content: m[2] };
    }).filter(Boolean);
  }

  function badges(d) {
    var status = $("status");
    status.textContent = "";
    status.appendChild(el("span", "уверенность: " + d.confidence, "fg-badge" + (d.confidence === "low" ? " fg-warn" : "")));
    if (d.handoff) status.appendChild(el("span", "передать специалисту", "fg-badge fg-warn"));
    status.appendChild(el("span", "генератор: " + d.generator, "fg-badge"));
  }

  function evidence(list) {
    var box = $("evidence");
    box.textContent = "";
    if (!list.length) box.appendChild(el("p", "Глоссарий этот вопрос не покрывает."));
    list.forEach(function (e) {
      var h = el("h3");
      var a = el("a", e.title);
      a.href = e.url;
      a.target = "_blank";
      a.rel = "noopener";
      h.appendChild(a);
      box.appendChild(h);
      e.sentences.forEach(function (s) { box.appendChild(el("blockquote", s)); });
    });
  }

  function calcs(list) {
    var box = $("calcs");
    box.textContent = "";
    if (!list.length) box.appendChild(el("p", "Нет."));
    list.forEach(function (c) {
      box.appendChild(el("h3", c.name));
      box.appendChild(el("p", (c.result && c.result.summary_ru) || ""));
      var table = el("table");
      [["вход", c.arguments], ["результат", (c.result && c.result.values) || {}]].forEach(function (part) {
        Object.keys(part[1]).forEach(function (k) {
          if (part[1][k] === null) return;
          var tr = el("tr");
          tr.appendChild(el("th", part[0] + ": " + k));
          tr.appendChild(el("td", JSON.stringify(part[1][k])));
          table.appendChild(tr);
        });
      });
      box.appendChild(table);
    });
  }

  $("ask").addEventListener("submit", async function (e) {
    e.preventDefault();
    sessionStorage.setItem("fg-agent-key", key.value);
    $("status").textContent = "Готовлю черновик…";
    $("copy").disabled = true;
    var r = await fetch("/v1/suggest", {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-API-Key": key.value },
      body: JSON.stringify({ message: $("message").value, thread: thread() })
    }).catch(function () { return null; });
    var d = r ? await r.json().catch(function () { return null; }) : null;
    if (!r || !r.ok || !d) {
      $("status").textContent = (d && d.error && d.error.message) || "Сервер недоступен.";
      return;
    }
    $("draft").textContent = d.draft;
    $("copy").disabled = false;
    badges(d);
    evidence(d.evidence);
    calcs(d.calculations);
  });

  $("copy").addEventListener("click", function () {
    var text = $("draft").textContent;
    var done = function () { $("copy").textContent = "Скопировано ✓"; setTimeout(function () { $("copy").textContent = "Скопировать черновик"; }, 1500); };
    if (navigator.clipboard) navigator.clipboard.writeText(text).then(done);
    else { var t = el("textarea", text); document.body.appendChild(t); t.select(); document.execCommand("copy"); t.remove(); done(); }
  });
})();
