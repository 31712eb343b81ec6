// The catalog as an MCP App: filter as one types, open the skill a tool call names, and speak the
// MCP Apps handshake with the host (ui/initialize, then size changes) over postMessage.
(function () {
  "use strict";
  var input = document.getElementById("q");
  var list = document.getElementById("skills");
  var count = document.getElementById("count");
  if (input && list) {
    var items = Array.prototype.slice.call(list.querySelectorAll("li.skill"));
    var total = count ? count.textContent.replace(/^\d+ of /, "") : "";
    input.addEventListener("input", function () {
      var words = input.value.toLowerCase().split(/\s+/).filter(Boolean);
      var shown = 0;
      items.forEach(function (item) {
        var text = item.getAttribute("data-search") || "";
        var match = words.every(function (w) { return text.indexOf(w) >= 0; });
        item.hidden = !match;
        if (match) { shown++; }
      });
      if (count) { count.textContent = shown + " of " + total; }
      reportSize();
    });
  }

  function open(name) {
    var views = document.querySelectorAll("section.skill-view");
    for (var i = 0; i < views.length; i++) {
      if (views[i].getAttribute("data-skill-name") === name) {
        location.hash = views[i].id;
        return;
      }
    }
  }

  var host = window.parent !== window ? window.parent : null;
  function send(message) {
    if (host) { host.postMessage(message, "*"); }
  }
  function reportSize() {
    send({
      jsonrpc: "2.0",
      method: "ui/notifications/size-changed",
      params: {
        width: document.documentElement.scrollWidth,
        height: document.documentElement.scrollHeight
      }
    });
  }
  window.addEventListener("hashchange", reportSize);

  var initId = 1;
  window.addEventListener("message", function (event) {
    if (!host || event.source !== host) { return; }
    var message = event.data;
    if (!message || message.jsonrpc !== "2.0") { return; }
    if (message.id === initId && message.result) {
      send({ jsonrpc: "2.0", method: "ui/notifications/initialized", params: {} });
      reportSize();
      return;
    }
    var params = message.params || {};
    if (message.method === "ui/notifications/tool-input") {
      var args = params.arguments || {};
      if (typeof args.skill_name === "string") { open(args.skill_name); }
    } else if (message.method === "ui/notifications/tool-result") {
      var shown = (params.structuredContent || {}).skill_name;
      if (typeof shown === "string") { open(shown); }
    } else if (message.id !== undefined && message.method) {
      // A request this view does not serve (ui/resource-teardown needs nothing but an answer).
      send({ jsonrpc: "2.0", id: message.id, result: {} });
    }
  });
  send({
    jsonrpc: "2.0",
    id: initId,
    method: "ui/initialize",
    params: {
      protocolVersion: "2026-01-26",
      appInfo: { name: "skillport-catalog", version: "1" },
      appCapabilities: {}
    }
  });
})();
