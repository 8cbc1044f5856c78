// One page of the PDF viewer. It starts as an empty box the size of the page, so a long PDF costs nothing until
// it is read; the viewer asks it to render (a canvas and a PDF.js text layer) when it comes near the viewport and
// to release them when it moves far away. Highlight boxes are plain elements above the canvas, recomputed from
// the chunk's rectangles for every zoom, so they never depend on which pages happen to be rendered; the cited
// quote's boxes (found by the server in the same coordinates) are drawn the same way, above them.
import { normalizeUnicode, TextLayer } from "pdfjs-dist";

// A page whose canvas would have more pixels than this is rendered at a lower resolution: at 400 % on a 2x screen
// it would otherwise take hundreds of megabytes.
const MAX_CANVAS_PIXELS = 2 ** 24;

function element(tag, className) {
  const node = document.createElement(tag);
  node.className = className;
  return node;
}

// The parser (PyMuPDF) stores line boxes in points measured from the top-left corner of the page's visible area
// (crop box), y downwards, on the page as it is stored, i.e. before its /Rotate is applied. PDF user space has y
// upwards and may not start at 0,0, so each corner is moved into user space first; the viewport's transform then
// applies the crop offset, the rotation and the zoom, exactly as it does for the canvas and the text layer.
export function viewportBox(rect, viewport) {
  const [left, , , top] = viewport.viewBox;
  const [ax, ay] = viewport.convertToViewportPoint(left + rect.x0, top - rect.y0);
  const [bx, by] = viewport.convertToViewportPoint(left + rect.x1, top - rect.y1);
  return { left: Math.min(ax, bx), top: Math.min(ay, by), width: Math.abs(bx - ax), height: Math.abs(by - ay) };
}

export class PageView {
  // onResize(page, delta) is told when the page turns out taller or shorter than guessed, so that the viewer can
  // keep what is on screen in place when a page above it changes.
  constructor(pdf, number, size, onResize) {
    this.pdf = pdf;
    this.number = number;
    this.size = size; // [width, height] at scale 1, a guess until the page itself has been read
    this.onResize = onResize;
    this.scale = 1;
    this.loading = null; // the promise of the page's PDFPageProxy
    this.proxy = null;
    this.base = null; // the page's viewport at scale 1, with its rotation and crop box
    this.rects = [];
    this.quoteRects = [];
    this.generation = 0; // bumped by every render or release, so a stale render never lands
    this.renderedScale = null;
    this.pending = null;
    this.task = null;
    this.textLayer = null;
    this.div = element("div", "pdf-page");
    this.div.dataset.page = number;
    this.canvasBox = element("div", "pdf-canvas");
    this.highlightBox = element("div", "pdf-highlights");
    this.textBox = element("div", "textLayer");
    this.div.append(this.canvasBox, this.highlightBox, this.textBox);
    this.bindSelection();
    this.layout();
  }

  // The page's own geometry, fetched once; pages only need it when they are drawn or highlighted.
  load() {
    this.loading ??= this.pdf.getPage(this.number).then((proxy) => {
      this.proxy = proxy;
      this.base = proxy.getViewport({ scale: 1 });
      const guessed = this.div.offsetHeight;
      this.size = [this.base.width, this.base.height];
      this.layout();
      if (this.div.offsetHeight !== guessed) this.onResize?.(this, this.div.offsetHeight - guessed);
      return proxy;
    });
    return this.loading;
  }

  viewport() {
    return this.base.clone({ scale: this.scale });
  }

  setScale(scale) {
    if (scale === this.scale) return;
    this.scale = scale;
    this.layout();
  }

  // Size the box for the current zoom (the old canvas is stretched until a new one replaces it) and put the
  // highlights where they belong at this zoom.
  layout() {
    this.div.style.width = `${Math.floor(this.size[0] * this.scale)}px`;
    this.div.style.height = `${Math.floor(this.size[1] * this.scale)}px`;
    // The text layer sizes and places its spans from these variables (see the .textLayer rules in portal.css).
    this.div.style.setProperty("--scale-factor", this.scale);
    this.div.style.setProperty("--user-unit", this.base ? this.base.userUnit : 1);
    this.drawHighlights();
  }

  // The chunk's rectangles and, inside them, the quote's (none once another passage is chosen).
  setHighlights(rects, quoteRects = []) {
    this.rects = rects;
    this.quoteRects = quoteRects;
    this.drawHighlights();
  }

  drawHighlights() {
    // drawn by layout() once the page's geometry is known
    if (!this.base && (this.rects.length || this.quoteRects.length)) return;
    const viewport = this.base && this.viewport();
    this.highlightBox.replaceChildren(
      ...this.rects.map((rect) => this.mark(rect, viewport, "pdf-highlight")),
      ...this.quoteRects.map((rect) => this.mark(rect, viewport, "pdf-quote")),
    );
  }

  mark(rect, viewport, className) {
    const box = viewportBox(rect, viewport);
    const mark = element("div", className);
    mark.dataset.page = this.number;
    Object.assign(mark.style, {
      left: `${box.left}px`,
      top: `${box.top}px`,
      width: `${box.width}px`,
      height: `${box.height}px`,
    });
    return mark;
  }

  // Render at the current zoom unless that is already done or under way. Resolves when the canvas and the text
  // layer are in place (or the render was superseded by a newer one).
  render() {
    if (this.renderedScale === this.scale && this.pending) return this.pending;
    this.cancel();
    const generation = this.generation;
    const scale = this.scale;
    this.renderedScale = scale;
    this.pending = this.draw(generation).catch((error) => {
      if (error?.name === "RenderingCancelledException" || error?.name === "AbortException") return;
      this.renderedScale = null;
      throw error;
    });
    return this.pending;
  }

  async draw(generation) {
    await this.load();
    if (generation !== this.generation) return;
    const viewport = this.viewport();
    const canvas = document.createElement("canvas");
    // Sharp on high-DPI screens: one canvas pixel per device pixel, within the memory cap.
    let ratio = window.devicePixelRatio || 1;
    const area = viewport.width * viewport.height;
    if (area * ratio * ratio > MAX_CANVAS_PIXELS) ratio = Math.sqrt(MAX_CANVAS_PIXELS / area);
    canvas.width = Math.floor(viewport.width * ratio);
    canvas.height = Math.floor(viewport.height * ratio);
    canvas.setAttribute("role", "presentation");
    this.task = this.proxy.render({
      canvasContext: canvas.getContext("2d", { alpha: false }),
      viewport,
      transform: ratio === 1 ? null : [canvas.width / viewport.width, 0, 0, canvas.height / viewport.height, 0, 0],
    });
    await this.task.promise;
    if (generation !== this.generation) return;
    // Swapped in only now, so zooming shows the stretched old page rather than a blank one.
    this.freeCanvas();
    this.canvasBox.append(canvas);
    await this.drawText(viewport, generation);
  }

  async drawText(viewport, generation) {
    const box = element("div", "textLayer");
    this.textLayer = new TextLayer({
      textContentSource: this.proxy.streamTextContent({ includeMarkedContent: true, disableNormalization: true }),
      container: box,
      viewport,
    });
    await this.textLayer.render();
    if (generation !== this.generation) return;
    // Lets a selection dragged past the last line end cleanly instead of jumping (as PDF.js's own viewer does).
    box.append(element("div", "endOfContent"));
    this.textBox.replaceWith(box);
    this.textBox = box;
  }

  cancel() {
    this.generation += 1;
    this.task?.cancel();
    this.textLayer?.cancel();
    this.task = this.textLayer = this.pending = null;
    this.renderedScale = null;
  }

  // Far from the viewport: give the canvas memory back; the box keeps its size and its highlights.
  release() {
    if (!this.pending && !this.canvasBox.firstChild) return;
    this.cancel();
    this.freeCanvas();
    this.textBox.replaceChildren();
    this.proxy?.cleanup();
  }

  freeCanvas() {
    for (const old of this.canvasBox.querySelectorAll("canvas")) {
      old.width = old.height = 0; // browsers keep the pixels of a detached canvas until it is collected
      old.remove();
    }
  }

  // Drawn again at the next render() even at the same zoom (the screen's pixel ratio changed).
  invalidate() {
    this.renderedScale = null;
  }

  isRendered() {
    return this.renderedScale === this.scale && !!this.canvasBox.firstChild;
  }

  // The text layer's spans are transparent; while the mouse is down PDF.js's CSS lets the end-of-content block
  // cover the page so the selection does not jump (the viewer clears "selecting" on pointerup), and copied text
  // gets ligatures and the like spelled out.
  bindSelection() {
    this.div.addEventListener("mousedown", (event) => {
      event.target.closest(".textLayer")?.classList.add("selecting");
    });
    this.div.addEventListener("copy", (event) => {
      const text = normalizeUnicode(document.getSelection().toString()).replaceAll("\0", "");
      event.clipboardData.setData("text/plain", text);
      event.preventDefault();
    });
  }
}
