// The viewport pass of a viewport-first capture. It runs in an isolated
// world, so the page's own scripts cannot patch the DOM methods it calls,
// and returns [json, nodes]: json describes the nodes that meet the viewport
// (grown by margin), their ancestors and the text inside them, and counts
// what lies wholly outside; nodes holds the same nodes in the same order, for
// their backendNodeIds (deep serialization). Everything it reads is the
// page's and untrusted; Go checks the shape.
//
// Incremental passes: the world keeps, per document, a memo of the last
// pass (the counts of each subtree wholly outside the viewport) and a
// MutationObserver with hover, focus, input and load signals. When the
// caller names the memo it holds (expect, "token:gen") and nothing forces
// a whole walk (a scroll, a resize, a style sheet edit, a modal, a font
// load, a frame in view), an unchanged subtree outside the viewport is not
// walked again: its counts come from the memo, and two of every run of
// such subtrees are measured again to check they are still outside. Each
// node then says whether its AX node (fresh) or its listeners (lfresh)
// may have changed since; Go fetches only those. A node described as at
// the memo's pass comes as a delta (see described), Go holding the rest.
//
// The pass is the scripts viewport.js, dom.js, roles.js, geometry.js,
// walk.js, finish.js, describe.js, memo.js and pagesize.js joined into
// one function of one argument (viewpass.go): viewportCall's.
/* global walkDoc, makeView, noteRecords, prepare, described, sheetsOf, Redo, canvasesInView */

// The pass's arguments, set by viewportPass at each call: the margin
// grown around the viewport (CSS px), the grid step of hit-test probes
// over positioned boxes, the most nodes kept, the style properties read,
// the share of the page past which auto mode takes the full capture (0:
// none), the memo's pass the caller holds (0: none) and the caller's
// token.
let margin, step, maxKept, styleProps, maxShare, expect, token;
// What a pass builds: its answer (out), the nodes it sends (nodes, for
// their backendNodeIds) and those it described (emitted), the number of
// nodes described so far (flat), the phase clock, the style attributes
// read (describe.js), the document's memo (view) and the number of this
// pass in it (nextGen).
let out, nodes, emitted, flat, clock, styleAttrs, view, nextGen;
// Hit-test probes cost from tens of microseconds to a millisecond each
// (deep inline layouts): they are bounded in number and time.
const maxProbes = 400, maxProbeMS = 60;

// phase adds the time since the last phase to name's.
function phase(name) { const now = performance.now(); out.phases[name] = (out.phases[name] || 0) + (now - clock); clock = now; }

// viewportCall is the pass as Go calls it: the pass's answer, and the
// number of canvases in view unless Go counted them already (canvases).
function viewportCall(args) {
  const r = viewportPass(args);
  return [r[0], r[1], args.canvases >= 0 ? args.canvases : canvasesInView()];
}

// viewportPass runs the pass: [json, nodes] (see the top).
function viewportPass(args) {
  ({ margin, step, maxKept, styleProps, maxShare, expect, token } = args);
  out = { docs: [], tooMany: false, walked: 0, probes: 0, phases: {}, closed: [], incremental: false, gen: 0, why: '' };
  clock = performance.now();
  nodes = [];
  emitted = [];
  flat = 0;
  styleAttrs = null;
  // One memo per caller (token), two at most: each process acting on the
  // tab has its own numbers.
  // (An element named __axfuseViews is a property of the window, not its own.)
  let views = Object.hasOwn(globalThis, '__axfuseViews') ? globalThis.__axfuseViews : null;
  if (!views || views.doc !== document) { views = globalThis.__axfuseViews = new Map(); views.doc = document; }
  view = views.get(token);
  if (!view) {
    for (const [k, v] of views) if (views.size >= 2) { v.stop(); views.delete(k); }
    view = makeView();
    views.set(token, view);
  }
  noteRecords(view, view.pending);
  const taken = view.mo.takeRecords();
  view.count += taken.length;
  noteRecords(view, taken);
  view.pending = [];
  // The nodes specOf named stand for this pass's if nothing was recorded
  // after it.
  out.spec = view.specAt !== undefined && view.specAt === view.count;
  view.specAt = undefined;
  nextGen = ++view.seq;
  let inc = prepare(view);
  if (typeof inc === 'string') { out.why = inc; inc = null; }
  try {
    walkDoc(document, window, -1, -1, inc);
  } catch (e) {
    if (!(e instanceof Redo)) throw e;
    out.why = e.why;
    out.docs = []; nodes.length = 0; emitted.length = 0; flat = 0; out.walked = 0; out.probes = 0; out.closed = [];
    inc = null;
    walkDoc(document, window, -1, -1, null);
  }
  out.incremental = inc !== null;
  if (out.tooMany || out.tooShare || out.docs.length !== 1) {
    // The next pass walks everything: nothing need be recorded till then.
    view.gen = 0;
    view.full = view.full || 'no memo';
    view.keys = null;
    view.touched.clear(); view.changed.clear(); view.onattr.clear();
  } else {
    const d = out.docs[0];
    view.keys = described(d, inc && view.keys);
    phase('delta');
    Object.assign(view, { token, gen: nextGen, margin, W: d.width, H: d.height, sx: d.scrollX, sy: d.scrollY, dpr: d.dpr, sheets: sheetsOf(), full: '' });
    view.touched.clear(); view.changed.clear(); view.onattr.clear();
    for (const n of emitted) view.emitted.set(n, nextGen);
    out.gen = nextGen;
  }
  if (out.tooMany) return [JSON.stringify({ tooMany: true, walked: out.walked }), []];
  if (out.tooShare) return [JSON.stringify({ tooShare: out.tooShare, walked: out.walked }), []];
  return [JSON.stringify(out), nodes];
}
