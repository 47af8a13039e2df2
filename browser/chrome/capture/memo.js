/* global margin, expect, token, typeOf, parentOf, nameOf, nodeNameOf, query, flatParent, styleSheetsGet, adoptedDesc, getAnimations */
// The world's memo of the last pass in a document, for incremental passes
// (viewport.js tells how): its observer and listeners, what they noted,
// and the description of each node the pass sent.

function Redo(why) { this.why = why; }
const watchOpts = { subtree: true, childList: true, attributes: true, characterData: true };
// Attributes that change what other nodes mean (a modal hides the rest,
// aria-owns moves children) or what every node looks like.
const wideAttrs = { inert: 1, 'aria-modal': 1, popover: 1, 'aria-owns': 1 };
const wideTags = { STYLE: 1, LINK: 1, DIALOG: 1, IFRAME: 1, FRAME: 1, OBJECT: 1, EMBED: 1, SLOT: 1, TEMPLATE: 1, BASE: 1 };
// The memo's observer and listeners are made by the Function
// constructor, in the world's global scope: a closure made here would
// hold this pass's whole scope (its node lists) for the document's life.
// Past maxPending records, or once a whole walk is due, they stop
// recording.
const makeView = Function('watchOpts', 'maxPending', `
  const v = { doc: document, token: '', gen: 0, seq: 0, roots: new WeakMap(), runs: new WeakMap(), kids: new WeakMap(), styles: new WeakMap(), ids: new WeakMap(), lastId: 0, emitted: new WeakMap(),
    touched: new Set(), changed: new Set(), onattr: new Set(), pending: [], full: 'no memo yet' };
  v.count = 0; // records and touches seen, for specOf
  v.mo = new MutationObserver((rs) => {
    v.count += rs.length;
    if (v.full) return;
    if (v.pending.length + rs.length > maxPending) { v.full = 'too many changes'; v.pending = []; return; }
    for (const r of rs) v.pending.push(r);
  });
  v.mo.observe(document, watchOpts);
  const ac = new AbortController();
  // Named elements shadow document.addEventListener and document.fonts
  // (<img name="addEventListener">): the DOM's own are used.
  const on = EventTarget.prototype.addEventListener;
  const fontsDesc = Object.getOwnPropertyDescriptor(Document.prototype, 'fonts');
  const fonts = fontsDesc ? fontsDesc.get.call(document) : null;
  v.stop = () => { v.mo.disconnect(); ac.abort(); };
  const touch = (e) => {
    v.count++;
    if (v.full || !e.target || !e.target.nodeType) return;
    if (v.touched.size > maxPending) { v.full = 'too many changes'; v.touched.clear(); return; }
    v.touched.add(e.target);
  };
  for (const type of ['mouseover', 'mouseout', 'pointerover', 'pointerout', 'focusin', 'focusout', 'input', 'change', 'load', 'error']) {
    on.call(document, type, touch, { capture: true, passive: true, signal: ac.signal });
  }
  for (const type of ['scroll', 'resize', 'toggle']) window.addEventListener(type, () => { v.full = v.full || type; }, { capture: true, passive: true, signal: ac.signal });
  if (fonts) on.call(fonts, 'loadingdone', () => { v.full = v.full || 'fonts loaded'; }, { signal: ac.signal });
  // specOf names, as the memo numbers them, the kept nodes of the pass
  // numbered expect whose AX nodes the next pass will likely want again:
  // those changed since and the kept nodes below them, then (apart)
  // their ancestors, which Go asks for only if their roles take a name
  // from their content (null past max of them, or when that pass is not
  // the memo's). Go asks for their AX nodes alongside the pass; the pass
  // says (spec) whether nothing was recorded in between, or they are
  // asked again. Nodes added since have no number: they come as nodes
  // (added), for their backendNodeIds.
  const get = (proto, name) => Object.getOwnPropertyDescriptor(proto, name).get;
  const parentGet = get(Node.prototype, 'parentNode'), firstGet = get(Node.prototype, 'firstChild'),
    nextGet = get(Node.prototype, 'nextSibling'), hostGet = get(ShadowRoot.prototype, 'host'), nodeTypeGet = get(Node.prototype, 'nodeType');
  v.specOf = (expect, max) => {
    if (v.full || !v.gen || v.gen !== expect) return null;
    const rs = v.mo.takeRecords();
    v.count += rs.length;
    for (const r of rs) v.pending.push(r);
    if (v.pending.length > maxPending) return null;
    const seen = new Set(), ids = [], anc = [], added = [];
    let budget = 8 * max;
    const add = (n, to) => {
      if (seen.has(n)) return false;
      seen.add(n);
      const id = v.ids.get(n);
      if (id !== undefined && v.emitted.get(n) === v.gen) to.push(id);
      else if (id === undefined && to === ids) added.push(n);
      return true;
    };
    const parent = x => parentGet.call(x) || (nodeTypeGet.call(x) === 11 ? hostGet.call(x) : null);
    const below = n => {
      for (let c = firstGet.call(n); c; c = nextGet.call(c)) {
        if (--budget < 0) return;
        add(c, ids);
        below(c);
      }
    };
    const targets = [...v.touched];
    for (const r of v.pending) {
      targets.push(r.target);
      if (r.type === 'childList') for (const a of r.addedNodes) targets.push(a);
    }
    for (const t of targets) add(t, ids);
    for (const t of targets) {
      below(t);
      if (budget < 0 || ids.length > max || added.length > max) return null;
    }
    for (const t of targets) {
      for (let x = parent(t); x && add(x, anc); x = parent(x));
      if (anc.length > max) return null;
    }
    v.specAt = v.count;
    return [ids, anc, added];
  };
  return v;`).bind(null, watchOpts, 20000);
function noteRecords(v, records) {
  for (const r of records) {
    const t = r.target;
    const el = typeOf(t) === 1 ? t : parentOf(t);
    if (el && wideTags[nameOf(el)]) v.full = v.full || 'a ' + nameOf(el).toLowerCase() + ' changed';
    if (r.type === 'attributes') {
      if (wideAttrs[r.attributeName] || r.attributeName === 'open' && nodeNameOf(t) === 'DIALOG') v.full = v.full || 'a modal or owner changed';
      v.touched.add(t);
      if (r.attributeName.startsWith('on')) v.onattr.add(t);
    } else if (r.type === 'characterData') {
      v.touched.add(t);
      const p = parentOf(t);
      if (p) v.changed.add(p);
    } else {
      v.changed.add(t);
      for (const a of r.addedNodes) {
        v.touched.add(a);
        if (wideTags[nameOf(a)] || typeOf(a) === 1 && query(a, 'style, link, dialog, iframe, frame, object, embed, slot, [inert], [aria-modal], [popover], [aria-owns]')) v.full = v.full || 'a ' + nameOf(a).toLowerCase() + ' was added';
      }
      for (const a of r.removedNodes) if (wideTags[nameOf(a)] || typeOf(a) === 1 && query(a, 'style, link, dialog, iframe, frame, object, embed, slot')) v.full = v.full || 'a ' + nameOf(a).toLowerCase() + ' was removed';
    }
  }
}
// sheetsOf is a signature of the document's style sheets.
function sheetsOf() {
  const sheets = styleSheetsGet.call(document);
  let sig = sheets.length + '/' + ((adoptedDesc ? adoptedDesc.get.call(document) : null) || []).length;
  for (const sh of sheets) {
    try { sig += ',' + sh.cssRules.length + (sh.disabled ? 'd' : '') + sh.media.mediaText; } catch (e) { sig += ',?'; }
  }
  return sig;
}
// prepare says what changed since the memo, or why it cannot serve.
function prepare(v) {
  if (expect <= 0 || v.token !== token || v.gen !== expect) return 'no memo of that pass';
  if (v.full) return v.full;
  if (v.margin !== margin) return 'another margin';
  if (v.sheets !== sheetsOf()) return 'a style sheet changed';
  // An element that animates moves and fades with no DOM change: its
  // subtree is walked again.
  if (getAnimations) {
    for (const a of getAnimations.call(document)) {
      if (a.playState !== 'running' && !a.pending) continue;
      const t = a.effect && a.effect.target;
      if (t && typeOf(t)) v.touched.add(t); else return 'an animation runs';
    }
  }
  const dirty = new Set();
  const up = n => { for (let x = n; x && !dirty.has(x); x = flatParent(x)) dirty.add(x); };
  for (const n of v.touched) up(n);
  for (const n of v.changed) up(n);
  return { gen: v.gen, roots: v.roots, touched: v.touched, changed: v.changed, dirty, onattr: v.onattr,
    W: v.W, H: v.H, sx: v.sx, sy: v.sy, dpr: v.dpr };
}

// described gives each node of d (pseudo elements aside) its
// description as a key, its parent and style named by what they are,
// not by index; given the keys of the memo's pass, a node described as
// then is sent as {'=': id, p: parent, s: style, o: paint order} (Go
// holds the rest), which makes an incremental answer a fraction of a
// whole one.
function described(d, before) {
  const keys = new Map();
  const styleKeys = d.styles.map(v => v.join('\u0000'));
  const idAt = d.nodes.map(o => o.id);
  for (let k = 0; k < d.nodes.length; k++) {
    const o = d.nodes[k];
    if (o.pseudoType !== undefined) continue;
    const L = o.layout;
    const c = Object.assign({}, o, { parent: o.parent < 0 ? -1 : idAt[o.parent], nid: 0, fresh: 0, lfresh: 0 });
    if (L) c.layout = Object.assign({}, L, { style: styleKeys[L.style], paintOrder: 0 });
    const key = JSON.stringify(c);
    keys.set(o.id, key);
    if (!before || o.nid >= 0 || before.get(o.id) !== key) continue;
    const same = { '=': o.id, p: o.parent };
    if (L) { same.s = L.style; same.o = L.paintOrder; }
    if (o.fresh) same.fresh = o.fresh;
    if (o.lfresh) same.lfresh = o.lfresh;
    d.nodes[k] = same;
  }
  return keys;
}
