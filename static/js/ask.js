// Answers that appear while they are written. The ask, follow-up and regenerate forms post normally without this
// file; with it they stream from POST /api/v1/ask/stream (server-sent events), and once the answer is stored the
// page swaps in the server's own rendering of it (the message partial), so a reload shows exactly the same.
// Anything going wrong before the answer is complete makes the form post normally instead.
(function () {
  "use strict";

  // Words come from Django's JavaScript catalog (/jsi18n/, loaded by base.html); untranslated without it.
  const gettext = window.gettext || function (text) { return text; };
  const ngettext = window.ngettext || function (one, many, n) { return n === 1 ? one : many; };
  const interpolate = window.interpolate || function (text, values, named) {
    return text.replace(/%\(\w+\)s/g, function (m) { return values[m.slice(2, -2)]; });
  };

  function csrfToken(form) {
    const input = form.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }

  function payload(form, extra) {
    const body = {};
    for (const [name, value] of new FormData(form)) {
      if (name !== "csrfmiddlewaretoken" && value !== "") body[name] = value;
    }
    for (const name of ["conversation", "document"]) {
      if (body[name]) body[name] = Number(body[name]);
    }
    return Object.assign(body, extra);
  }

  // The events of an SSE response body, parsed as they arrive ("event: kind\ndata: json\n\n").
  async function* events(response) {
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true }).replace(/\r\n/g, "\n");
      let end;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        let kind = "message";
        const data = [];
        for (const line of block.split("\n")) {
          if (line.startsWith("event:")) kind = line.slice(6).trim();
          else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
        }
        if (data.length) yield { kind: kind, data: JSON.parse(data.join("\n")) };
      }
    }
  }

  function element(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  // Text so far with its [n] markers as (not yet clickable) badges; built from text nodes, never parsed as HTML.
  // `source(n, before)` is the evidence passage behind badge n (the text event's `order`), whose quote the badge
  // shows; `before` is the paragraph's text up to the badge, so a citation attached to one claim shows its quote.
  function showText(container, text, source) {
    container.replaceChildren();
    for (const paragraph of text.split(/\n\s*\n/)) {
      const p = element("p");
      let before = "";
      paragraph.split(/(\[\d+\])/).forEach(function (part, i) {
        if (!(i % 2)) {
          before += part;
          return p.append(part);
        }
        const badge = element("span", "badge cite is-pending", part.slice(1, -1));
        const passage = source(Number(badge.textContent), before);
        if (passage) badge.title = (passage.title || passage.source) + ": " + passage.quote;
        p.append(badge);
      });
      container.append(p);
    }
  }

  function showEvidence(slot, evidence) {
    const list = slot.querySelector(".evidence-list");
    list.replaceChildren();
    slot.querySelector(".stream-state").textContent = evidence.length
      ? interpolate(
        ngettext("Reading %(count)s passage…", "Reading %(count)s passages…", evidence.length),
        { count: evidence.length },
        true,
      )
      : gettext("No passage found; answering…");
    for (const item of evidence) {
      const line = element("li", "", item.title || item.source);
      const where = item.page ? interpolate(gettext("p. %(n)s"), { n: item.page }, true) : item.section || "";
      if (where) line.append(" ", element("span", "muted", "(" + where + ")"));
      list.append(line);
    }
  }

  // The answer being written is a polite live region, busy until it is complete, so a screen reader reads it
  // once rather than word by word; the line above it ("Searching…", "Writing…") is a status.
  function streamingSlot(question) {
    const slot = element("article", "message-block is-streaming");
    const head = element("header", "message-head");
    head.append(element("h2", "message-question", question));
    const state = element("p", "stream-state muted small", gettext("Searching…"));
    state.setAttribute("role", "status");
    const answer = element("div", "answer");
    answer.setAttribute("aria-live", "polite");
    answer.setAttribute("aria-busy", "true");
    slot.append(head, state, element("ol", "evidence-list small"), answer);
    return slot;
  }

  function finished(slot) {
    const answer = slot.querySelector(".answer");
    if (answer) answer.setAttribute("aria-busy", "false");
  }

  async function streamAnswer(form, slot, body) {
    const response = await fetch(form.dataset.streamUrl, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", Accept: "text/event-stream", "X-CSRFToken": csrfToken(form) },
      body: JSON.stringify(body),
    });
    if (!response.ok || !response.body) throw new Error("streaming unavailable (" + response.status + ")");
    let text = "";
    let evidence = [];
    let order = [];
    let attached = []; // citation events: {claim, evidence_number, quote} of each sentence cited after writing
    const plain = function (value) {
      return value.replace(/\[\d+\]/g, "").replace(/\s+/g, " ").replace(/[\s.!?。！？；]+$/, "");
    };
    const source = function (n, before) {
      const passage = evidence.find(function (item) { return item.evidence_number === order[n - 1]; });
      const claim = before === undefined ? "" : plain(before);
      const own = attached.find(function (a) {
        return a.evidence_number === order[n - 1] && claim && claim.endsWith(plain(a.claim));
      });
      return passage && own ? Object.assign({}, passage, { quote: own.quote }) : passage;
    };
    for await (const event of events(response)) {
      if (event.kind === "evidence") {
        evidence = event.data.evidence || [];
        showEvidence(slot, evidence);
      } else if (event.kind === "text") {
        text = "text" in event.data ? event.data.text : text + (event.data.delta || "");
        order = event.data.order || order;
        slot.querySelector(".stream-state").textContent = gettext("Writing…");
        showText(slot.querySelector(".answer"), text, source);
      } else if (event.kind === "citation") {
        // A finished sentence got its citation (the LLM path): the whole text so far, with the new badge.
        text = event.data.text;
        order = event.data.order || order;
        attached = attached.concat(event.data.citations || []);
        showText(slot.querySelector(".answer"), text, source);
      } else if (event.kind === "finish") return event.data;
      else if (event.kind === "error") throw new Error(event.data.detail || "the answer failed");
    }
    throw new Error("the stream ended before the answer was complete");
  }

  async function storedMessage(conversationsUrl, finish, streamedFrom) {
    const base = conversationsUrl + finish.conversation + "/";
    const query = streamedFrom ? "?streamed=" + streamedFrom : "";
    const response = await fetch(base + "messages/" + finish.message + "/" + query, { credentials: "same-origin" });
    if (!response.ok) throw new Error("the stored answer could not be loaded (" + response.status + ")");
    const holder = document.createElement("template");
    holder.innerHTML = (await response.text()).trim(); // the server's own escaped rendering of the answer
    return { node: holder.content.firstElementChild, url: base + "#message-" + finish.message };
  }

  // The ask page's history gains the conversation just started, as a reload would show it.
  function listConversation(url, question) {
    const history = document.querySelector(".history");
    if (!history) return;
    let list = history.querySelector(".conversation-links");
    if (!list) {
      const empty = history.querySelector(".empty");
      if (!empty) return;
      list = element("ul", "conversation-links");
      empty.replaceWith(list);
    }
    const link = element("a", "", question);
    link.href = url.split("#")[0];
    const item = element("li");
    // The same line the page draws for older conversations (templates/citations/ask.html).
    item.append(link, " ", element("span", "muted small", gettext("1 question · just now")));
    list.prepend(item);
  }

  async function submit(form, event) {
    const regenerate = form.classList.contains("regenerate-form");
    // A regenerate form borrows the page's ask form for the stream's address and the CSRF token.
    const source = regenerate ? document.querySelector("form.ask-form") : form;
    if (!source || !window.fetch || !window.ReadableStream || !window.TextDecoder) return; // post normally
    event.preventDefault();
    const old = regenerate ? form.closest(".message-block") : null;
    const body = regenerate
      ? { regenerate: Number(old.dataset.messageId), depth: form.elements.depth.value }
      : payload(form, {});
    const slot = streamingSlot(regenerate ? old.querySelector(".message-question").textContent : body.question);
    if (regenerate) old.replaceWith(slot);
    else document.querySelector(form.dataset.target).append(slot);
    slot.scrollIntoView({ block: "nearest" });
    const button = form.querySelector("button[type=submit]");
    if (button) button.disabled = true;
    let finish = null;
    try {
      finish = await streamAnswer(source, slot, body);
      finished(slot);
      const stored = await storedMessage(source.dataset.conversationsUrl, finish, regenerate ? "" : "ask");
      slot.replaceWith(stored.node);
      history.replaceState(null, "", stored.url);
      if (!regenerate) {
        if (!source.elements.conversation.value) listConversation(stored.url, body.question);
        // What comes next on this page follows up the conversation the address now names.
        source.elements.conversation.value = finish.conversation;
        source.elements.question.value = "";
        if (button) button.disabled = false;
      }
    } catch (error) {
      if (finish) {
        // The answer is stored already: posting again would ask twice. Its conversation page shows it; the slot
        // says so and links there, so a page that cannot load either is not left saying "Writing…".
        const url = source.dataset.conversationsUrl + finish.conversation + "/#message-" + finish.message;
        const state = slot.querySelector(".stream-state");
        state.textContent = gettext("The answer is saved but could not be shown here: ");
        const link = element("a", "", gettext("open it in its conversation"));
        link.href = url;
        state.append(link);
        slot.classList.remove("is-streaming");
        finished(slot);
        if (button) button.disabled = false;
        location.assign(url);
        return;
      }
      console.warn("ask.js: posting the form instead:", error);
      if (old) slot.replaceWith(old);
      else slot.remove();
      form.submit();
    }
  }

  document.addEventListener("submit", function (event) {
    const form = event.target;
    if (form.matches("form.ask-form, form.regenerate-form") && !form.dataset.posting) {
      form.dataset.posting = "1"; // one answer at a time per form
      submit(form, event).finally(function () {
        delete form.dataset.posting;
      });
    }
  });

  // A badge shows its quote on hover or focus and, clicked, highlights its source card. The popover is a tooltip
  // the badge names with aria-describedby while it is shown; Escape closes it, and it stays closed (focus staying
  // on, or going back to, the badge) until the pointer or the focus leaves that badge.
  let popover = null;
  let shown = null;
  let dismissed = null;
  function restore() {
    if (shown) {
      shown.title = shown.dataset.quote;
      delete shown.dataset.quote;
      shown.removeAttribute("aria-describedby");
    }
    if (popover) popover.remove();
    popover = shown = null;
  }
  function showQuote(event) {
    const badge = event.target.closest && event.target.closest("a.cite[title]");
    if (!badge || !badge.title || badge === dismissed) return;
    restore();
    shown = badge;
    badge.dataset.quote = badge.title;
    badge.removeAttribute("title"); // the popover stands in for the browser's own tooltip meanwhile
    popover = element("div", "cite-popover", badge.dataset.quote);
    popover.id = "cite-popover";
    popover.setAttribute("role", "tooltip");
    document.body.append(popover);
    badge.setAttribute("aria-describedby", popover.id);
    // below the badge, inside the window however narrow it is
    const box = badge.getBoundingClientRect();
    const room = document.documentElement.clientWidth - popover.offsetWidth - 8;
    popover.style.left = Math.max(8, Math.min(box.left, room)) + window.scrollX + "px";
    popover.style.top = box.bottom + window.scrollY + 6 + "px";
  }
  function hideQuote(event) {
    const badge = event.target.closest && event.target.closest("a.cite");
    if (!badge || (badge.contains(event.relatedTarget))) return;
    if (badge === dismissed) dismissed = null;
    if (badge === shown) restore();
  }
  document.addEventListener("mouseover", showQuote);
  document.addEventListener("focusin", showQuote);
  document.addEventListener("mouseout", hideQuote);
  document.addEventListener("focusout", hideQuote);
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape" || !shown) return;
    const badge = shown;
    const focused = document.activeElement === badge;
    restore();
    dismissed = badge;
    if (focused) badge.focus(); // the focus stays on the badge that opened it
    event.preventDefault();
  });
  // The card of a badge clicked inside claim k shows claim k's quote, and its link opens the viewer at that quote
  // (`&claim=k`: the viewer emphasises that claim's own quote of the passage, display.claim_quote). Any other badge
  // naming the card (the citation chain's) gives it back its own quote and link, the first claim's.
  function pointCard(card, badge) {
    const quote = card.querySelector(".card-quote");
    const open = card.querySelector("a.card-open");
    if (quote && card.dataset.quote === undefined) card.dataset.quote = quote.textContent;
    if (open && card.dataset.openUrl === undefined) card.dataset.openUrl = open.getAttribute("href");
    const claim = badge.closest("[data-claim]");
    const own = claim && (badge.dataset.quote || badge.title);
    if (quote) quote.textContent = own || card.dataset.quote;
    // Only a link into the passage takes the claim; one to a changed document's page stays as it is.
    if (open && card.dataset.openUrl.indexOf("?chunk=") >= 0) {
      open.href = card.dataset.openUrl + (claim ? "&claim=" + encodeURIComponent(claim.dataset.claim) : "");
    }
  }

  document.addEventListener("click", function (event) {
    const badge = event.target.closest("a.cite");
    const card = badge && badge.hash && document.getElementById(badge.hash.slice(1));
    if (!card) return;
    event.preventDefault();
    for (const active of document.querySelectorAll(".source-card.is-active")) active.classList.remove("is-active");
    card.classList.add("is-active");
    pointCard(card, badge);
    card.scrollIntoView({ behavior: "smooth", block: "center" });
  });
})();
