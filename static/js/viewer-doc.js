// The document viewer (DOCX, Markdown, text, web pages, workbooks): the server draws the document from the same
// parse that made its chunks, each block anchored by its locator. This script highlights the cited chunk by that
// locator alone: its paragraph ids (id="para-…"), else its paragraph ordinals (data-para-no), else its lines
// (data-line-start/end). A short quote can therefore never land on another paragraph that merely contains it.
// Only inside the blocks found that way, when the chunk is a piece of a longer block (a long table or paragraph
// cut by the chunker), its text singles out the rows, lines or words of that piece. Opened at a citation of that
// chunk, the sentence(s) it is cited for (target.quote_pieces) are emphasised within those blocks again. When a
// chunk is drawn, the article's data-highlighted holds its chunk_index (the browser tests wait for it) and
// data-quoted how many of the quote's pieces were found. A long document is shown one page at a time (#viewer-page
// says which chunks are drawn on it): a chunk of another page is never looked for here, and choosing one in the
// panel opens its page.
(function () {
  "use strict";

  // Words come from Django's JavaScript catalog (/jsi18n/, loaded by base.html); untranslated without it.
  const gettext = window.gettext || function (text) { return text; };
  const article = document.getElementById("doc-viewer");
  const targetNode = document.getElementById("viewer-target");
  if (!article || !targetNode) return;
  const note = document.getElementById("doc-locate-note");
  const HIGHLIGHT = "doc-highlight";
  const PART = "doc-highlight-part";
  const HAS_PART = "doc-has-part"; // the block is drawn lighter so its cited part stands out
  const RANGE = "doc-passage"; // a CSS custom highlight, where the browser has them
  const QUOTE = "doc-quote"; // the cited quote within the passage, drawn over it

  function isNumber(value) { return typeof value === "number" && isFinite(value); }

  function inRange(el, startAttr, endAttr, start, end) {
    const first = Number(el.getAttribute(startAttr));
    const last = endAttr ? Number(el.getAttribute(endAttr)) : first;
    return first <= end && last >= start;
  }

  // The blocks a locator points at, most precise first; nothing at all rather than a guess.
  function locate(locator) {
    let found = [];
    if (Array.isArray(locator.para_ids) && locator.para_ids.length) {
      found = locator.para_ids.map(function (id) { return document.getElementById("para-" + id); }).filter(Boolean);
    }
    if (!found.length && isNumber(locator.para_start)) {
      const end = isNumber(locator.para_end) ? locator.para_end : locator.para_start;
      found = Array.from(article.querySelectorAll("[data-para-no]")).filter(function (el) {
        return inRange(el, "data-para-no", null, locator.para_start, end);
      });
    }
    if (!found.length && isNumber(locator.line_start)) {
      const end = isNumber(locator.line_end) ? locator.line_end : locator.line_start;
      found = Array.from(article.querySelectorAll("[data-line-start]")).filter(function (el) {
        return inRange(el, "data-line-start", "data-line-end", locator.line_start, end);
      });
    }
    return found;
  }

  // Text as the parse has it: what is only shown (a heading's number, a row number, padding) is left out.
  function textOf(el) {
    let out = "";
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
      if (!walker.currentNode.parentElement.closest(".doc-extra")) out += walker.currentNode.data;
    }
    return out;
  }

  function unitText(unit) {
    if (unit.tagName !== "TR") return textOf(unit);
    return Array.from(unit.cells).filter(function (cell) { return !cell.classList.contains("doc-extra"); })
      .map(textOf).join(" | ");
  }

  // Whitespace collapsed and table rows written one way (" | " between cells, none around the row), so a
  // chunk's text and the drawn blocks compare although Markdown rows keep their outer pipes.
  function normal(text) {
    return text.split("\n").map(function (line) {
      return line.replace(/\s+/g, " ").trim().replace(/^\| ?/, "").replace(/ ?\|$/, "").replace(/ ?\| ?/g, " | ");
    }).filter(Boolean).join(" ");
  }

  // Rows or lines of the located blocks that hold the chunk's text, when it is only a part of them.
  function partUnits(blocks, text) {
    const units = [];
    for (const block of blocks) {
      const inner = block.querySelectorAll("[data-unit]");
      units.push.apply(units, inner.length ? Array.from(inner) : [block]);
    }
    const spans = [];
    let hay = "";
    for (const unit of units) {
      const piece = normal(unitText(unit));
      if (!piece) continue;
      if (hay) hay += " ";
      spans.push([unit, hay.length, hay.length + piece.length]);
      hay += piece;
    }
    const needle = normal(text || "");
    const at = needle ? hay.indexOf(needle) : -1;
    if (at < 0) return [];
    const hit = spans.filter(function (s) { return s[1] < at + needle.length && s[2] > at; });
    return hit.length < spans.length ? hit.map(function (s) { return s[0]; }) : [];
  }

  // The block's text with whitespace collapsed, and for each of its characters the text node and offset it came
  // from; what is only shown (.doc-extra) is left out.
  function flatText(block) {
    let text = "";
    const map = [];
    let space = true;
    const walker = document.createTreeWalker(block, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
      const node = walker.currentNode;
      if (node.parentElement.closest(".doc-extra")) continue;
      for (let k = 0; k < node.data.length; k++) {
        const blank = /\s/.test(node.data[k]);
        if (blank && space) continue;
        space = blank;
        text += blank ? " " : node.data[k];
        map.push([node, k]);
      }
    }
    return { text: text, map: map };
  }

  function collapsed(text) { return (text || "").replace(/\s+/g, " ").trim(); }

  // The characters at..at+length of a flatText() as a DOM range.
  function rangeOf(flat, at, length) {
    const range = document.createRange();
    const start = flat.map[at], end = flat.map[at + length - 1];
    range.setStart(start[0], start[1]);
    range.setEnd(end[0], end[1] + 1);
    return range;
  }

  // The chunk's words inside one long block, as a DOM range (whitespace-insensitive, exact otherwise).
  function textRange(block, text) {
    const needle = collapsed(text);
    if (!needle) return null;
    const flat = flatText(block);
    const at = flat.text.indexOf(needle);
    if (at < 0 || needle.length >= flat.text.trim().length) return null;
    return rangeOf(flat, at, needle.length);
  }

  // The cited quote inside the chunk's blocks, never elsewhere: each of its pieces (cut by the server where the
  // chunk's text and the drawn text may differ: a list's bullet, a heading's number, a citation mark) found in the
  // blocks' text read one after the other, so that a quote running over two list items or paragraphs (nothing
  // ends a sentence between them) is found too, and drawn as one range per block it touches. Returns the ranges
  // and how many pieces were found.
  function quoteRanges(blocks, pieces) {
    if (!pieces.length) return { ranges: [], found: 0 };
    const flats = [];
    let hay = "";
    for (const block of blocks) {
      const flat = flatText(block);
      const text = flat.text.replace(/ $/, "");
      if (!text) continue;
      if (hay) hay += " ";
      flats.push({ flat: flat, start: hay.length, end: hay.length + text.length });
      hay += text;
    }
    const ranges = [];
    let found = 0;
    for (const piece of pieces) {
      const needle = collapsed(piece);
      const at = needle ? hay.indexOf(needle) : -1;
      if (at < 0) continue;
      found += 1;
      for (const f of flats) {
        const from = Math.max(at, f.start), to = Math.min(at + needle.length, f.end);
        if (from < to) ranges.push(rangeOf(f.flat, from - f.start, to - from));
      }
    }
    return { ranges: ranges, found: found };
  }

  function clear() {
    for (const el of article.querySelectorAll("." + HIGHLIGHT + ", ." + PART)) {
      el.classList.remove(HIGHLIGHT, PART, HAS_PART);
    }
    if (window.CSS && CSS.highlights) {
      CSS.highlights.delete(RANGE);
      CSS.highlights.delete(QUOTE);
    }
    delete article.dataset.quoted;
  }

  function scrollTo(el, smooth) {
    el.scrollIntoView({ block: "center", behavior: smooth ? "smooth" : "auto" });
  }

  // The piece may start far down a long paragraph: scroll to a marker put where it starts, then take it out.
  function scrollToRange(range, smooth) {
    const mark = document.createElement("span");
    range.insertNode(mark);
    scrollTo(mark, smooth);
    const parent = mark.parentNode;
    mark.remove();
    parent.normalize();
  }

  function show(locator, smooth) {
    clear();
    if (!locator) return;
    const blocks = locate(locator);
    note.hidden = blocks.length > 0;
    if (!blocks.length) {
      note.textContent = gettext(
        "This passage cannot be placed exactly in this view of the document; its text is in the panel.",
      );
      return;
    }
    for (const block of blocks) block.classList.add(HIGHLIGHT);
    const customHighlights = window.CSS && CSS.highlights && typeof Highlight === "function";
    const parts = partUnits(blocks, locator.text);
    let passage = null; // the chunk's words in one long block, as a range
    if (parts.length) {
      for (const block of blocks) block.classList.add(HAS_PART);
      for (const unit of parts) unit.classList.add(PART);
    } else if (blocks.length === 1 && customHighlights && textRange(blocks[0], locator.text)) {
      blocks[0].classList.add(HAS_PART);
      passage = function () { return textRange(blocks[0], locator.text); };
    }
    const pieces = customHighlights ? locator.quote_pieces || [] : [];
    const quote = quoteRanges(blocks, pieces);
    // The quote when there is one, else the passage's start. Scrolling to a range puts a marker into the text
    // and takes it out again, so the ranges drawn below are made after it.
    if (quote.found) scrollToRange(quote.ranges[0], smooth);
    else if (passage) scrollToRange(passage(), smooth);
    else scrollTo(parts.length ? parts[0] : blocks[0], smooth);
    if (passage) CSS.highlights.set(RANGE, new Highlight(passage()));
    if (quote.found) {
      const emphasis = new Highlight(...quoteRanges(blocks, pieces).ranges);
      emphasis.priority = 1; // over the passage's own highlight
      CSS.highlights.set(QUOTE, emphasis);
    }
    article.dataset.quoted = String(quote.found); // pieces of the quote found (the browser tests read it)
    article.dataset.highlighted = String(locator.chunk_index);
  }

  const pageNode = document.getElementById("viewer-page");
  const page = pageNode ? JSON.parse(pageNode.textContent) : null;

  function onThisPage(locator) {
    return !page || (locator.chunk_index >= page.first_chunk && locator.chunk_index <= page.last_chunk);
  }

  function openPageOf(locator) {
    const url = new URL(window.location.href);
    url.searchParams.set("chunk", locator.chunk_index);
    url.searchParams.delete("page");
    window.location.assign(url);
  }

  const target = JSON.parse(targetNode.textContent);
  // The quote belongs to the cited passage: another one chosen in the panel shows without it, the cited one with.
  document.addEventListener("viewer:select", function (event) {
    const chosen = target && event.detail && event.detail.chunk_index === target.chunk_index ? target : event.detail;
    if (chosen && !onThisPage(chosen)) openPageOf(chosen);
    else show(chosen, true);
  });
  if (target && onThisPage(target)) show(target, false);
  else if (target && note) {
    note.hidden = false;
    note.textContent = gettext(
      "The cited passage is on another page of this document; choose it in the panel to go there.",
    );
  }
})();
