// The PDF viewer. PDF.js reads the document from the file endpoint by byte ranges, so a large PDF arrives piece
// by piece; only the pages near the viewport get a canvas and a text layer; the cited passage's rectangles are
// highlighted on every page it spans and, opened at a citation, the quote it is cited for more strongly. The side
// panel (viewer-panel.js) moves the highlight with a "viewer:select" event. Tests drive and inspect it through
// window.portalViewer.
import { getDocument, GlobalWorkerOptions } from "pdfjs-dist";
import { PageView } from "portal/viewer-pdf-page";

const ZOOM_STEPS = [0.5, 0.67, 0.8, 1, 1.25, 1.5, 1.75, 2, 2.5, 3, 4];
const MIN_SCALE = 0.25;
const MAX_SCALE = 5;
const PAGE_MARGIN = 12; // px around each page; .pdf-page's margin in portal.css

const root = document.getElementById("pdf-viewer");
const scroller = root.querySelector(".pdf-pages");
const toolbar = root.querySelector(".pdf-toolbar");
const zoomLabel = root.querySelector(".pdf-zoom-level");
const pageLabel = root.querySelector(".pdf-page-number");
const note = root.querySelector(".pdf-note");
const targetNode = document.getElementById("viewer-target");
const target = targetNode ? JSON.parse(targetNode.textContent) : null;

const state = { pages: [], scale: 1, fit: true, selection: 0 };

// The worker, character maps, standard fonts and image decoders all come from this site's static files.
GlobalWorkerOptions.workerSrc = root.dataset.workerSrc;

function clamp(value, low, high) {
  return Math.min(Math.max(value, low), high);
}

async function open() {
  const data = root.dataset;
  const pdf = await getDocument({
    url: data.fileUrl,
    cMapUrl: data.cmapUrl,
    cMapPacked: true,
    standardFontDataUrl: data.fontUrl,
    wasmUrl: data.wasmUrl,
    iccUrl: data.iccUrl,
    // Only the ranges the pages on screen need: a 300-page PDF is not downloaded to show page 120.
    disableAutoFetch: true,
    disableStream: true,
    isEvalSupported: false,
  }).promise;
  const start = clamp(target?.page || 1, 1, pdf.numPages);
  const base = (await pdf.getPage(start)).getViewport({ scale: 1 });
  // Until a page is read, it is assumed to be the size of the first one shown (papers rarely mix sizes).
  const size = [base.width, base.height];
  state.pages = Array.from({ length: pdf.numPages }, (_, i) => new PageView(pdf, i + 1, size, keepInPlace));
  scroller.replaceChildren(...state.pages.map((page) => page.div));
  pageLabel.max = pdf.numPages;
  root.querySelector(".pdf-page-count").textContent = pdf.numPages;
  toolbar.hidden = false;
  await setZoom(fitScale(start), { fit: true, render: false });
  await select(target);
}

// A page that starts above the view turned out taller or shorter than guessed: shift by as much, so what is on
// screen below it (the passage, typically) stays put. Nothing of that page was drawn yet, so nothing is lost.
function keepInPlace(page, delta) {
  if (page.div.offsetTop < scroller.scrollTop) scroller.scrollTop += delta;
}

function fitScale(number) {
  const page = state.pages[(number || currentPage()) - 1];
  return clamp((scroller.clientWidth - 2 * PAGE_MARGIN) / page.size[0], MIN_SCALE, MAX_SCALE);
}

// Highlight one passage (a locator, as in #viewer-target or the panel's event) and bring it into view: the quote
// it is cited for first, when the viewer was opened at a citation and this is the cited passage.
async function select(locator) {
  const selection = ++state.selection;
  const rects = locator?.locator_precision === "bbox" ? locator.rects || [] : [];
  const byPage = onPages(rects);
  const quotes = onPages(rects.length ? locator.quote_rects || [] : []);
  for (const page of state.pages) page.setHighlights(byPage.get(page.number) || [], quotes.get(page.number) || []);
  note.hidden = !locator || rects.length > 0;
  // A highlighted page needs its own geometry (rotation, crop box) before its boxes can be placed.
  await Promise.all([...byPage.keys()].map((number) => state.pages[number - 1].load()));
  if (selection !== state.selection) return; // another passage was chosen meanwhile
  const marked = quotes.size ? quotes : byPage;
  const first = marked.size ? Math.min(...marked.keys()) : clamp(locator?.page || 1, 1, state.pages.length);
  scrollToPage(state.pages[first - 1], quotes.size ? ".pdf-quote" : ".pdf-highlight");
  await update();
}

// Page number -> its rectangles, in the order given (the chunk's reading order, the quote's order).
function onPages(rects) {
  const byPage = new Map();
  for (const rect of rects) {
    if (rect.page < 1 || rect.page > state.pages.length) continue;
    byPage.set(rect.page, [...(byPage.get(rect.page) || []), rect]);
  }
  return byPage;
}

// The first of the page's boxes (`selector`) a little below the top edge, or the page's top when it has none.
function scrollToPage(page, selector) {
  const marks = [...page.highlightBox.querySelectorAll(selector)];
  const top = marks.length ? Math.min(...marks.map((mark) => mark.offsetTop)) : 0;
  const left = marks.length ? Math.min(...marks.map((mark) => mark.offsetLeft)) : 0;
  scroller.scrollTop = page.div.offsetTop + top - (marks.length ? scroller.clientHeight * 0.15 : PAGE_MARGIN);
  // Only matters when zoomed wider than the view; the browser clamps it otherwise.
  scroller.scrollLeft = page.div.offsetLeft + left - PAGE_MARGIN;
}

// Render the pages within a screen above and two below the view, release those far outside it. Resolves when
// the pages in range are drawn, which is what "ready" and the zoom buttons wait for.
function update() {
  const top = scroller.scrollTop;
  const height = scroller.clientHeight;
  const drawn = [];
  for (const page of state.pages) {
    const y = page.div.offsetTop;
    const bottom = y + page.div.offsetHeight;
    if (bottom > top - height && y < top + 2 * height) drawn.push(page.render());
    else if (bottom < top - 3 * height || y > top + 4 * height) page.release();
  }
  pageLabel.value = currentPage();
  return Promise.all(drawn);
}

// The page under the middle of the view.
function currentPage() {
  const middle = scroller.scrollTop + scroller.clientHeight / 2;
  const page = state.pages.find((p) => p.div.offsetTop + p.div.offsetHeight + PAGE_MARGIN > middle);
  return page ? page.number : state.pages.length || 1;
}

// Change the zoom and keep the same spot of the same page at the top of the view.
function setZoom(scale, { fit = false, render = true } = {}) {
  scale = clamp(Math.round(scale * 1000) / 1000, MIN_SCALE, MAX_SCALE);
  const anchor = state.pages.find((p) => p.div.offsetTop + p.div.offsetHeight > scroller.scrollTop);
  const offset = anchor ? (scroller.scrollTop - anchor.div.offsetTop) / anchor.div.offsetHeight : 0;
  state.scale = scale;
  state.fit = fit;
  for (const page of state.pages) page.setScale(scale);
  if (anchor) scroller.scrollTop = anchor.div.offsetTop + offset * anchor.div.offsetHeight;
  zoomLabel.value = `${Math.round(scale * 100)} %`;
  root.querySelector("[data-zoom=fit]").setAttribute("aria-pressed", String(fit));
  return render ? update() : Promise.resolve([]);
}

function zoomStep(direction) {
  const steps = direction > 0 ? ZOOM_STEPS : [...ZOOM_STEPS].reverse();
  const next = steps.find((step) => (direction > 0 ? step > state.scale * 1.01 : step < state.scale * 0.99));
  return setZoom(next ?? state.scale);
}

function fail(error) {
  root.dataset.state = "error";
  const message = document.createElement("p");
  message.className = "error pdf-error";
  // Django's JavaScript catalog (/jsi18n/, a classic script run before this module) translates; English without it.
  const gettext = window.gettext || ((text) => text);
  const interpolate = window.interpolate || ((text, values) => text.replace(/%\((\w+)\)s/g, (m, name) => values[name]));
  message.textContent = interpolate(
    gettext("The PDF could not be shown (%(error)s). The file can still be downloaded."),
    { error: error?.message || error },
    true,
  );
  scroller.replaceChildren(message);
  toolbar.hidden = true;
  throw error;
}

function bindControls() {
  let frame = 0;
  scroller.addEventListener("scroll", () => {
    // once per frame, however many scroll events arrive
    frame ||= requestAnimationFrame(() => {
      frame = 0;
      update().catch(console.error);
    });
  });
  toolbar.addEventListener("click", (event) => {
    const button = event.target.closest("[data-zoom]");
    if (!button || !state.pages.length) return;
    const how = button.dataset.zoom;
    const done = how === "fit" ? setZoom(fitScale(), { fit: true }) : zoomStep(how === "in" ? 1 : -1);
    done.catch(console.error);
  });
  pageLabel.addEventListener("change", () => {
    const page = state.pages[clamp(pageLabel.valueAsNumber || 1, 1, state.pages.length) - 1];
    if (page) scroller.scrollTop = page.div.offsetTop - PAGE_MARGIN;
  });
  // Fit width follows the window (and the panel) as they are resized.
  new ResizeObserver(() => {
    if (state.fit && state.pages.length) setZoom(fitScale(), { fit: true }).catch(console.error);
  }).observe(scroller);
  // A passage chosen while the PDF is still loading is shown once it has loaded; the cited one with its quote.
  document.addEventListener("viewer:select", (event) => {
    const cited = target && event.detail?.chunk_index === target.chunk_index;
    ready.then(() => select(cited ? target : event.detail)).catch(console.error);
  });
  document.addEventListener("pointerup", () => {
    for (const layer of root.querySelectorAll(".textLayer.selecting")) layer.classList.remove("selecting");
  });
  watchPixelRatio();
}

// Moving the window to a screen with another pixel density (or zooming the browser) redraws the canvases.
function watchPixelRatio() {
  const query = matchMedia(`(resolution: ${window.devicePixelRatio}dppx)`);
  query.addEventListener(
    "change",
    () => {
      for (const page of state.pages) page.invalidate();
      update().catch(console.error);
      watchPixelRatio();
    },
    { once: true },
  );
}

const ready = open().then(() => {
  root.dataset.state = "ready";
}, fail);
ready.catch(() => {}); // shown in the page by fail(); tests still see the rejection through portalViewer.ready
bindControls();

// The boxes drawn for `selector` (".pdf-highlight", ".pdf-quote") where they are on screen, for the tests.
function boxes(selector) {
  return [...root.querySelectorAll(selector)].map((mark) => {
    const box = mark.getBoundingClientRect();
    return { page: Number(mark.dataset.page), x: box.x, y: box.y, width: box.width, height: box.height };
  });
}

window.portalViewer = {
  ready,
  get scale() {
    return state.scale;
  },
  get pageCount() {
    return state.pages.length;
  },
  zoom: (scale) => setZoom(scale),
  zoomIn: () => zoomStep(1),
  zoomOut: () => zoomStep(-1),
  fitWidth: () => setZoom(fitScale(), { fit: true }),
  select,
  idle: update, // resolves once the pages in view are drawn
  rendered: () => state.pages.filter((page) => page.isRendered()).map((page) => page.number),
  highlights: () => boxes(".pdf-highlight"),
  quotes: () => boxes(".pdf-quote"), // the cited quote's boxes, within the highlighted passage
};
