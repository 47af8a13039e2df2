// The page side of TextPixels (pixelstyle.go), run in axfuse's isolated
// world of each frame; pixelhide.js holds hideTexts. Each call the Go side
// makes joins these scripts into one function (pagejs.go).

// registerTexts keeps the elements under the token in the isolated world
// and says which can be styled: a shadow root stands for its host (whose
// style its children inherit).
function registerTexts(token, ...nodes) {
  const runs = globalThis.__axfusePixels || (globalThis.__axfusePixels = new Map());
  const els = nodes.map(n => n instanceof ShadowRoot ? n.host : n).map(n => n instanceof Element && n.style ? n : null);
  runs.set(token, {els, saved: new Map()});
  return els.map(Boolean);
}

// painted waits two animation frames, so that the change has been painted
// (in this frame's own process too) before the screenshot; a page that
// gets no frames (a background tab) waits 250 ms instead.
function painted() {
  return new Promise(done => { setTimeout(done, 250); requestAnimationFrame(() => requestAnimationFrame(() => done())); });
}

// restoreTexts puts every saved style attribute back as it was: first with
// transitions still off, then, once the style is recalculated, exactly. A
// page's colour transition would otherwise fade its text back in.
function restoreTexts(token, drop = false) {
  const runs = globalThis.__axfusePixels, run = runs && runs.get(token);
  if (!run) return;
  const saved = [...run.saved];
  run.saved.clear();
  if (run.sheet) {
    document.adoptedStyleSheets = document.adoptedStyleSheets.filter(s => s !== run.sheet);
    run.sheet = null;
  }
  if (drop) runs.delete(token);
  if (!saved.length) return;
  for (const [el, old] of saved) {
    el.setAttribute('style', old === null ? '' : old);
    el.style.setProperty('transition', 'none', 'important');
  }
  for (const [el] of saved) getComputedStyle(el).color;
  for (const [el, old] of saved) old === null ? el.removeAttribute('style') : el.setAttribute('style', old);
  return painted();
}
