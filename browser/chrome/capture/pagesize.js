// What auto mode asks of a page before the viewport pass (auto.go): its
// size, whether its text is long, and its canvases in view. pageSize is
// evaluated alone; canvasesInView also joins the viewport pass.

// pageSize is [small, elements, canvases]: small when the document has
// under minElements elements and its text does not reach minText
// characters.
function pageSize({ minElements, minText }) {
  const n = document.getElementsByTagName('*').length;
  return [n < minElements && !longText(minText), n, canvasesInView()];
}

// longText tells whether the document's text reaches min characters,
// reading no further than that.
function longText(min) {
  const w = document.createTreeWalker(document.body || document.documentElement || document, NodeFilter.SHOW_TEXT);
  let total = 0;
  for (let t = w.nextNode(); t; t = w.nextNode()) {
    const p = t.parentNode ? t.parentNode.nodeName : '';
    if (p === 'SCRIPT' || p === 'STYLE' || p === 'NOSCRIPT' || p === 'TEMPLATE') continue;
    total += t.data.length;
    if (total >= min) return true;
  }
  return false;
}

// canvasesInView counts the document's <canvas> elements whose box meets
// the viewport.
function canvasesInView() {
  let canvases = 0;
  for (const c of document.getElementsByTagName('canvas')) {
    const r = c.getBoundingClientRect();
    if (r.width > 0 && r.height > 0 && r.right > 0 && r.bottom > 0 && r.left < innerWidth && r.top < innerHeight) canvases++;
  }
  return canvases;
}
