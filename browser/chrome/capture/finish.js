/* global maxKept, maxShare, out, phase, step, maxProbes, maxProbeMS, Redo, inView, within, dirOf, paintOrderOf, nothingSealedInView, roleOf, likelyTarget, describeDoc, walkDoc, typeOf, tagOf, closestOf, firstChildOf, nextSiblingOf, dataOf, own, frameGets, elementsFromPoint, nextGen, view */
// Steps 2 to 5 of the viewport pass (viewport.js) over one document's
// elements (walk.js): which are kept, what lies outside, paint order, and
// the frames in view; describe.js does step 3, the kept nodes.

function finishDoc(doc, win, owner, parentDoc, els, par, rect, sealed, under, block, walked, W, H, sx, sy, inc) {
  const n = els.length;
  const keep = new Uint8Array(n);
  for (let i = 1; i < n; i++) if (inView(rect[i], W, H)) keep[i] = 1;
  const index = new Map();
  for (let i = 0; i < n; i++) index.set(els[i], i);
  if (inc) nothingSealedInView(doc, index, sealed, block, W, H);
  // A select's options have no box of their own; the select stands for
  // them. A hidden control inside a label in view makes the label the
  // thing to click.
  for (let i = 1; i < n; i++) {
    if (keep[i] || typeOf(els[i]) !== 1) continue;
    const tag = tagOf(els[i]);
    if (par[i] > 0 && keep[par[i]] && typeOf(els[par[i]]) === 1 && tagOf(els[par[i]]) === 'SELECT') keep[i] = 1;
    else if (!rect[i] && (tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA')) {
      const label = closestOf(els[i], 'label');
      if (label && inView(rect[index.get(label)], W, H)) keep[i] = 1;
    }
    if (keep[i] && sealed[i]) throw new Redo('a subtree outside the viewport is needed');
  }
  keep[0] = 1;
  // Ancestors of kept nodes are kept. Indexes were assigned in push order,
  // and every child's index exceeds its parent's, so one backward sweep does.
  for (let i = n - 1; i > 0; i--) if (keep[i]) keep[par[i]] = 1;
  let kept = 0;
  for (let i = 0; i < n; i++) kept += keep[i];
  if (kept > maxKept) { out.tooMany = true; return null; }
  // Auto mode: when most of the top document meets the viewport, the
  // caller takes the full capture, so stop before the costly steps (and
  // before Chrome serializes every kept node). Text nodes are fetched
  // one by one too, so they count; here, those under kept elements.
  if (maxShare > 0 && parentDoc < 0) {
    let texts = 0;
    for (let i = 0; i < n; i++) {
      if (!keep[i]) continue;
      for (let c = firstChildOf(els[i]); c; c = nextSiblingOf(c)) if (typeOf(c) === 3 && dataOf(c).trim() !== '') texts++;
    }
    // walked: the document's nodes, those of sealed subtrees included.
    if (kept + texts > maxShare * walked) { out.tooShare = kept + texts; return null; }
  }

  const F = { doc, win, owner, parentDoc, els, par, rect, sealed, under, block, W, H, sx, sy, inc, n, keep, index };
  Object.assign(F, countOutside(F));
  phase('count');
  const d = describeDoc(F);
  phase('describe');
  paintOrder(F, d);
  phase('paint order');
  enterFrames(F, d);
  return d;
}

// countOutside is step 2 for the document F (finishDoc's): each subtree
// outside the viewport counted, and its memo kept for the next pass.
function countOutside(F) {
  const { els, par, rect, sealed, block, W, H, n, keep } = F;
  // 2. What lies outside: each element that is not kept belongs to the
  // subtree of its topmost unkept ancestor (a child of a kept node). A
  // sealed entry brings its subtree's counts from the memo; each root
  // leaves its counts in the memo for the next pass.
  const rootOf = new Int32Array(n).fill(-1);
  const roles = new Map(), sizes = new Map();
  const targetsBelow = new Int32Array(n);
  const memo = new Map(); // root index -> its new memo
  for (let i = 1; i < n; i++) {
    if (keep[i]) continue;
    const p = par[i];
    const r = keep[p] ? i : rootOf[p];
    rootOf[i] = r;
    const Bk = block[i];
    if (Bk && r === i) { targetsBelow[p] += Bk.targets; continue; }
    let M = memo.get(r);
    if (!M) memo.set(r, M = { gen: '', rect: rect[r], dir: rect[r] ? dirOf(rect[r], W, H) : '', targets: 0, size: 0, roles: {}, walked: 0, escapes: false, controls: false });
    if (Bk) {
      // A block under a node no longer kept: its roots are inside
      // another root's subtree now.
      targetsBelow[par[r]] += Bk.targets; M.targets += Bk.targets; M.walked += Bk.walked; M.escapes = true;
      sizes.set(r, (sizes.get(r) || 0) + Bk.rec.nodes); M.size += Bk.rec.nodes;
      let into = roles.get(r);
      if (!into) roles.set(r, into = {});
      for (const k in Bk.rec.roles) { into[k] = (into[k] || 0) + Bk.rec.roles[k]; M.roles[k] = (M.roles[k] || 0) + Bk.rec.roles[k]; }
      // A heading or landmark run does not count its first root's own
      // role (it is the run's); inside another root's subtree it counts.
      if (Bk.rec.kind !== 'plain') { const k = Bk.rec.role; into[k] = (into[k] || 0) + 1; M.roles[k] = (M.roles[k] || 0) + 1; }
      continue;
    }
    const S = sealed[i];
    if (S) {
      // The subtree as the memo counted it; its root's own role counts
      // when it is not the root here.
      targetsBelow[par[r]] += S.targets; M.targets += S.targets;
      M.walked += S.walked;
      if (S.rect && r !== i && (!rect[r] || !within(S.rect, rect[r]))) M.escapes = true;
      if (S.size) sizes.set(r, (sizes.get(r) || 0) + S.size);
      M.size += S.size;
      let into = roles.get(r);
      if (!into) roles.set(r, into = {});
      for (const k in S.roles) { into[k] = (into[k] || 0) + S.roles[k]; M.roles[k] = (M.roles[k] || 0) + S.roles[k]; }
      if (r !== i && S.rect) { const role = roleOf(els[i]); if (role) { into[role] = (into[role] || 0) + 1; M.roles[role] = (M.roles[role] || 0) + 1; } }
      if (!Object.keys(into).length) roles.delete(r);
      continue;
    }
    M.walked++;
    const el = els[i];
    const isEl = typeOf(el) === 1, tag = isEl ? tagOf(el) : '';
    if (isEl && likelyTarget(el)) { targetsBelow[par[r]]++; M.targets++; }
    if (!rect[i] && isEl && (tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA')) M.controls = true;
    if (!isEl) M.escapes = true; // a shadow root: the memo does not follow into it
    if (!rect[i] || !isEl) continue;
    if (r !== i && (!rect[r] || !within(rect[i], rect[r]))) M.escapes = true;
    sizes.set(r, (sizes.get(r) || 0) + 1);
    M.size++;
    if (r === i) continue; // the root's own role is the run's
    const role = roleOf(el);
    if (!role) continue;
    let m = roles.get(r);
    if (!m) roles.set(r, m = {});
    m[role] = (m[role] || 0) + 1;
    M.roles[role] = (M.roles[role] || 0) + 1;
  }
  for (const [r, M] of memo) {
    if (typeOf(els[r]) !== 1) continue;
    M.gen = nextGen;
    view.roots.set(els[r], M);
  }

  return { roles, sizes, targetsBelow, memo };
}

// paintOrder is step 4 for the document F, described as d.
function paintOrder(F, d) {
  const { doc, rect, W, H, index, outOf, layer, areas, probeEls } = F;
  // 4. Paint order: boxes in normal flow paint in tree order; where
  // positioned boxes are, the browser's own hit-test stacks
  // (elementsFromPoint at their centres and on a grid over fixed, sticky
  // and absolute boxes) say which box lies over which. Probes cost tens
  // to hundreds of microseconds each, so they are bounded.
  const before = new Map(); // out index -> out indexes painted before it
  let probes = 0;
  const probeDeadline = performance.now() + maxProbeMS;
  const probe = (x, y) => {
    if (x < 0 || y < 0 || x >= W || y >= H) return;
    if (probes >= maxProbes || performance.now() > probeDeadline) { out.cut = true; return; }
    probes++;
    const stack = elementsFromPoint.call(doc, x, y);
    let above = -1;
    for (const e of stack) {
      const j = index.get(e);
      if (j === undefined || outOf[j] < 0) continue;
      const o = layer[outOf[j]];
      if (above >= 0 && above !== o) {
        let s = before.get(above);
        if (!s) before.set(above, s = new Set());
        s.add(o);
      }
      above = o;
    }
  };
  const centre = r => probe(Math.min(Math.max(r.left + r.width / 2, 0), W - 1), Math.min(Math.max(r.top + r.height / 2, 0), H - 1));
  for (const r of areas) centre(r);
  for (const r of areas) {
    const x0 = Math.max(r.left, 0), x1 = Math.min(r.right, W), y0 = Math.max(r.top, 0), y1 = Math.min(r.bottom, H);
    for (let y = y0 + step / 2; y < y1; y += step) for (let x = x0 + step / 2; x < x1; x += step) probe(x, y);
  }
  for (const i of probeEls) centre(rect[i]);
  out.probes += probes;
  const order = paintOrderOf(d.nodes.length, layer, before);
  for (let k = 0; k < d.nodes.length; k++) {
    const o = d.nodes[k];
    if (!o.layout) continue;
    o.layout.paintOrder = order[layer[k]];
  }
}

// enterFrames is step 5 for the document F, described as d.
function enterFrames(F, d) {
  const { inc, frames, docIndex } = F;
  // 5. Same-origin iframes in view get their own pass; others are left to
  // the caller (out-of-process frames have their own target; a
  // cross-origin frame in this process, listed in closed, has none).
  // An incremental pass does not walk a frame's document: one it could
  // read (same origin) makes it walk everything. Others (cross-origin)
  // are the caller's, as in a whole pass.
  for (const [el, me] of frames) {
    const [cdGet, cwGet] = frameGets[tagOf(el)];
    const cd = own(cdGet, el) || null, cw = cd ? own(cwGet, el) : null;
    if (inc && cd && cw) throw new Redo('a frame is in view');
    if (cd && cw) walkDoc(cd, cw, me, docIndex, null);
    else out.closed.push(d.base + me);
  }
}
