// Forms marked data-confirm="question" ask before they submit (the Delete buttons of document rows).
// One listener on the document, so rows that htmx swaps in later are covered too; no inline handler, which
// the Content-Security-Policy would refuse.
document.addEventListener("submit", (event) => {
  const form = event.target.closest("form[data-confirm]");
  if (form && !window.confirm(form.dataset.confirm)) {
    event.preventDefault();
  }
});
