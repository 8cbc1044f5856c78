// The viewer's side panel: the cited passage and its neighbours from the preview API. Clicking a passage moves
// the highlight there: the panel announces it with a "viewer:select" event carrying the passage's locator (the
// same keys as #viewer-target), which the PDF and document viewers listen for.
(function () {
  "use strict";

  // Words come from Django's JavaScript catalog (/jsi18n/, loaded by base.html); untranslated without it.
  const gettext = window.gettext || function (text) { return text; };
  const interpolate = window.interpolate || function (text, values) {
    return text.replace(/%\(\w+\)s/g, function (m) { return values[m.slice(2, -2)]; });
  };
  const panel = document.getElementById("viewer-panel");
  const targetNode = document.getElementById("viewer-target");
  if (!panel || !targetNode) return;
  const target = JSON.parse(targetNode.textContent);
  if (!target) return;
  const list = panel.querySelector(".panel-chunks");
  function passageLabel(number) {
    return interpolate(gettext("passage %(n)s"), { n: number }, true);
  }

  // The quote a citation was made for scrolls inside its own short box when it is long: the box then takes the
  // keyboard focus, so it can be scrolled without a mouse.
  const quote = document.querySelector(".cited-quote");
  function quoteFocusable() {
    if (quote.scrollHeight > quote.clientHeight + 1) quote.tabIndex = 0;
    else quote.removeAttribute("tabindex");
  }
  if (quote) {
    quoteFocusable();
    window.addEventListener("resize", quoteFocusable);
  }

  function select(item, row) {
    for (const other of list.querySelectorAll(".is-target")) {
      other.classList.remove("is-target");
      other.querySelector(".panel-select").removeAttribute("aria-current");
    }
    row.classList.add("is-target");
    row.querySelector(".panel-select").setAttribute("aria-current", "true");
    const url = new URL(window.location.href);
    url.searchParams.set("chunk", item.chunk_index);
    history.replaceState(null, "", url);
    document.dispatchEvent(new CustomEvent("viewer:select", { detail: item }));
  }

  function show(chunks) {
    list.replaceChildren();
    for (const chunk of chunks) {
      const item = Object.assign({ chunk_index: chunk.chunk_index, text: chunk.text }, chunk.metadata);
      const row = document.createElement("li");
      row.className = "panel-chunk" + (chunk.is_target ? " is-target" : "");
      row.dataset.chunkIndex = chunk.chunk_index;
      // A real button: reached by Tab, chosen by Enter or Space, announced as one (the row only draws it).
      const button = document.createElement("button");
      button.type = "button";
      button.className = "panel-select";
      if (chunk.is_target) button.setAttribute("aria-current", "true");
      const head = document.createElement("span");
      head.className = "panel-place muted small";
      head.textContent = chunk.place || passageLabel(chunk.chunk_index + 1); // as the source cards say it
      const text = document.createElement("span");
      text.className = "panel-text";
      text.textContent = chunk.text;
      button.append(head, text);
      button.addEventListener("click", function () { select(item, row); });
      row.append(button);
      list.append(row);
    }
  }

  const url = new URL(panel.dataset.previewUrl, window.location.href);
  url.searchParams.set("chunk_index", target.chunk_index);
  url.searchParams.set("context", panel.dataset.context || "2");
  fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } })
    .then(function (response) { return response.ok ? response.json() : Promise.reject(response.status); })
    .then(function (data) { show(data.chunks || []); })
    .catch(function () {
      list.replaceChildren(Object.assign(document.createElement("li"), { textContent: gettext("The passages could not be loaded.") }));
    });
})();
