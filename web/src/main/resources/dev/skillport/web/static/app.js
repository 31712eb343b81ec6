// Small enhancements of server-rendered pages; each page works without them.
(function () {
  "use strict";

  // Catalog: filter the list as one types, and apply a chosen filter at once.
  function catalog() {
    var form = document.querySelector("form.search");
    var input = document.getElementById("q");
    var list = document.getElementById("skills");
    var count = document.getElementById("count");
    if (!form || !input || !list) {
      return;
    }
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
    });
    Array.prototype.forEach.call(form.querySelectorAll("select"), function (select) {
      select.addEventListener("change", function () { form.submit(); });
    });
  }

  function setField(row, name, value) {
    var cell = row.querySelector('[data-field="' + name + '"]');
    if (!cell) { return; }
    cell.textContent = value || "";
    if (name === "status") { cell.className = "badge status " + value; }
  }

  function newRow(table, idAttr, id, fields, labels) {
    var row = document.createElement("tr");
    row.setAttribute(idAttr, id);
    var first = document.createElement("td");
    first.setAttribute("data-label", labels[0]);
    var code = document.createElement("code");
    code.title = id;
    code.textContent = id.slice(0, 8);
    first.appendChild(code);
    row.appendChild(first);
    fields.forEach(function (name, i) {
      var td = document.createElement("td");
      td.setAttribute("data-label", labels[i + 1]);
      var holder = td;
      if (name === "status") {
        holder = document.createElement("span");
        td.appendChild(holder);
      }
      holder.setAttribute("data-field", name);
      row.appendChild(td);
    });
    var body = table.tBodies[0];
    body.insertBefore(row, body.firstChild);
    return row;
  }

  // Jobs: rows follow the server's events; no polling.
  function jobs() {
    var jobsTable = document.getElementById("jobs");
    var runsTable = document.getElementById("runs");
    var live = document.getElementById("live");
    if (!jobsTable || !window.EventSource) {
      return;
    }
    var source = new EventSource("/events");
    source.addEventListener("open", function () {
      live.textContent = live.getAttribute("data-on");
      live.classList.add("on");
    });
    source.addEventListener("error", function () {
      live.textContent = live.getAttribute("data-off");
      live.classList.remove("on");
    });
    source.addEventListener("job", function (e) {
      var job = JSON.parse(e.data);
      var row = jobsTable.querySelector('tr[data-job-id="' + CSS.escape(job.id) + '"]');
      if (!row) {
        row = newRow(jobsTable, "data-job-id", job.id,
          ["tool", "instance", "status", "progress", "created", "started", "completed", "error"],
          ["Job", "Tool", "Instance", "Status", "Progress", "Created", "Started", "Completed", "Error"]);
        var none = document.getElementById("no-jobs");
        if (none) { none.remove(); }
      }
      ["tool", "instance", "status", "progress", "created", "started", "completed", "error"].forEach(function (f) {
        setField(row, f, job[f]);
      });
    });
    source.addEventListener("run", function (e) {
      var run = JSON.parse(e.data);
      var row = runsTable.querySelector('tr[data-run-id="' + CSS.escape(run.id) + '"]');
      if (!row) {
        row = newRow(runsTable, "data-run-id", run.id,
          ["workflow", "status", "step", "created", "error"],
          ["Run", "Workflow", "Status", "Step", "Created", "Error"]);
        var none = document.getElementById("no-runs");
        if (none) { none.remove(); }
      }
      ["workflow", "status", "step", "error"].forEach(function (f) { setField(row, f, run[f]); });
      if (run.created) { setField(row, "created", run.created); }
    });
    window.addEventListener("pagehide", function () { source.close(); });
  }

  document.addEventListener("DOMContentLoaded", function () {
    catalog();
    jobs();
  });
})();
