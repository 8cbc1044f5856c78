// The document viewer (DOCX, Markdown, text, web pages, workbooks): the server draws the document from the same
// parse that made its chunks, each block anchored by its locator. This script highlights the cited chunk by that
// locator alone: its paragraph ids (id="para-…"), else its paragraph ordinals (data-para-no), else its lines
// (data-line-start/end). A short quote can therefore never land on another paragraph that merely contains it.
// Only inside the blocks found that way, when the chunk is a piece of a longer block (a long table or paragraph
// cut by the chunker), its text singles out the rows, lines or words of that piece. When a chunk is drawn, the
// article's data-highlighted holds its chunk_index (the browser tests wait for it).
(function () {
  "use strict";
  const article = document.getElementById("doc-viewer");
  const targetNode = document.getElementById("viewer-target");
  if (!article || !targetNode) return;
  const note = document.getElementById("doc-locate-note");
  const HIGHLIGHT = "doc-highlight";
  const PART = "doc-highlight-part";
  const HAS_PART = "doc-has-part"; // the block is drawn lighter so its cited part stands out
  const RANGE = "doc-passage"; // a CSS custom highlight, where the browser has them

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

  // The chunk's words inside one long block, as a DOM range (whitespace-insensitive, exact otherwise).
  function textRange(block, text) {
    const needle = (text || "").replace(/\s+/g, " ").trim();
    if (!needle) return null;
    let flat = "";
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
        flat += blank ? " " : node.data[k];
        map.push([node, k]);
      }
    }
    const at = flat.indexOf(needle);
    if (at < 0 || needle.length >= flat.trim().length) return null;
    const range = document.createRange();
    const start = map[at], end = map[at + needle.length - 1];
    range.setStart(start[0], start[1]);
    range.setEnd(end[0], end[1] + 1);
    return range;
  }

  function clear() {
    for (const el of article.querySelectorAll("." + HIGHLIGHT + ", ." + PART)) {
      el.classList.remove(HIGHLIGHT, PART, HAS_PART);
    }
    if (window.CSS && CSS.highlights) CSS.highlights.delete(RANGE);
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
      note.textContent = "This passage cannot be placed exactly in this view of the document; its text is in the panel.";
      return;
    }
    for (const block of blocks) block.classList.add(HIGHLIGHT);
    let first = blocks[0];
    const parts = partUnits(blocks, locator.text);
    if (parts.length) {
      for (const block of blocks) block.classList.add(HAS_PART);
      for (const unit of parts) unit.classList.add(PART);
      first = parts[0];
    } else if (blocks.length === 1 && window.CSS && CSS.highlights && typeof Highlight === "function") {
      const range = textRange(blocks[0], locator.text);
      if (range) {
        blocks[0].classList.add(HAS_PART);
        scrollToRange(range, smooth);
        CSS.highlights.set(RANGE, new Highlight(textRange(blocks[0], locator.text)));
        first = null;
      }
    }
    if (first) scrollTo(first, smooth);
    article.dataset.highlighted = String(locator.chunk_index);
  }

  document.addEventListener("viewer:select", function (event) { show(event.detail, true); });
  show(JSON.parse(targetNode.textContent), false);
})();
