/* global view, nextGen, out, phase, watchOpts, Redo, inView, dirOf, finishDoc, typeOf, tagOf, shadowOf, firstElOf, nextElOf, rectOf, rectsOf, docElOf, compatOf, clientWidthGet, clientHeightGet, elementFromPoint, flatParent, nextSiblingOf, dataOf */
// Step 1 of the viewport pass (viewport.js): every element of a document
// in tree order, with its box; in an incremental pass the subtrees and
// runs the memo has outside the viewport are sealed, not entered.

function walkDoc(doc, win, owner, parentDoc, inc) {
  const root = docElOf(doc);
  const W = compatOf(doc) === 'CSS1Compat' && root ? clientWidthGet.call(root) : win.innerWidth;
  const H = compatOf(doc) === 'CSS1Compat' && root ? clientHeightGet.call(root) : win.innerHeight;
  const sx = win.scrollX, sy = win.scrollY;
  if (inc && (inc.W !== W || inc.H !== H || inc.sx !== sx || inc.sy !== sy || inc.dpr !== win.devicePixelRatio)) throw new Redo('the viewport moved');
  // 1. Every element (and open shadow root) in tree order, with its box.
  // In an incremental pass a clean subtree the memo has outside the
  // viewport is one entry (sealed) and is not entered.
  const els = [doc], par = [-1], rect = [null], sealed = [null], under = [false], block = [null];
  const stack = [0];
  while (stack.length) {
    const i = stack.pop();
    const n = els[i];
    const isEl = typeOf(n) === 1;
    const kids = kidsOf(n, isEl, inc);
    const u = under[i] || !!inc && inc.touched.has(n);
    const reuse = inc && !u && !(isEl && tagOf(n) === 'SELECT');
    const blocks = reuse ? blocksOf(inc, n, kids, W, H) : null;
    const seal = reuse ? kids.map((c, k) => blocks && blocks[k] !== undefined ? null : sealOf(inc, c)) : null;
    if (seal) stillOutside(kids, seal, W, H);
    for (let k = kids.length - 1; k >= 0; k--) {
      const c = kids[k];
      if (blocks && blocks[k] === null) continue; // inside a block
      const j = els.length;
      els.push(c); par.push(i);
      if (blocks && blocks[k]) { rect.push(blocks[k].rect); sealed.push(null); block.push(blocks[k]); under.push(false); continue; }
      block.push(null);
      if (seal && seal[k]) { rect.push(seal[k].rect); sealed.push(seal[k]); under.push(false); continue; }
      let r = null;
      if (typeOf(c) === 1) {
        const b = rectOf(c);
        if (b.width || b.height || b.x || b.y || rectsOf(c).length) r = b;
      }
      rect.push(r); sealed.push(null); under.push(u);
      stack.push(j);
    }
    // Indexes are not tree order, but a child's always exceeds its
    // parent's; step 3 walks the real tree order.
  }
  let walked = els.length;
  for (const S of sealed) if (S) walked += S.walked - 1;
  for (const B of block) if (B) walked += B.walked - 1;
  out.walked += walked;
  phase('boxes');
  return finishDoc(doc, win, owner, parentDoc, els, par, rect, sealed, under, block, walked, W, H, sx, sy, inc);
}

// kidsOf lists n's shadow root and element children. A long list the
// memo's pass read is read again only when a childList record names n
// since (a shadow root attached is a whole walk): a table's 5,000 rows
// cost a millisecond to list.
const longKids = 32;
function kidsOf(n, isEl, inc) {
  const was = inc && !inc.changed.has(n) ? view.kids.get(n) : undefined;
  if (was && was.gen === inc.gen) {
    was.gen = nextGen;
    return was.kids.slice();
  }
  const kids = [];
  const sr = isEl ? shadowOf(n) : null;
  if (sr) { kids.push(sr); view.mo.observe(sr, watchOpts); }
  for (let c = firstElOf(n); c; c = nextElOf(c)) kids.push(c);
  if (kids.length >= longKids) view.kids.set(n, { gen: nextGen, kids: kids.slice() });
  return kids;
}

// nothingSealedInView: what the page shows must not lie in a sealed
// subtree. A change no signal follows (a style rule edited through the
// CSSOM) could bring one into view: the browser's own hit test on a grid
// over the viewport finds any box of 128×128 px or more, and the pass
// walks everything. (A smaller one stays folded until the next whole
// walk: the view shows less, never more, than the page.)
const probeGrid = 128;
function nothingSealedInView(doc, index, sealed, block, W, H) {
  const used = new Set();
  for (const B of block) if (B) used.add(B);
  function shows() { return new Redo('a subtree outside the viewport shows in it'); }
  for (let y = probeGrid / 2; y < H; y += probeGrid) {
    for (let x = probeGrid / 2; x < W; x += probeGrid) {
      let e = elementFromPoint.call(doc, x, y);
      for (; e && !index.has(e); e = flatParent(e)) {
        // A block's roots after its first are not entries of their own.
        const R = view.roots.get(e);
        if (R && R.run && used.has(R.run)) throw shows();
      }
      const i = e ? index.get(e) : undefined;
      if (i !== undefined && (sealed[i] || block[i])) throw shows();
    }
  }
}

// blocksOf finds, among n's children, the runs of the memo's pass that
// can stand as one entry each (a block): every root in place and
// sealable, none changed, the first and last still outside. The answer
// gives the block at its first root's place and null at the others'.
function blocksOf(inc, n, kids, W, H) {
  let at = null;
  for (let k = 0; k < kids.length; k++) {
    const B = view.runs.get(kids[k]);
    if (!B || B.gen !== inc.gen || !B.sealable || B.parent !== n) continue;
    const len = B.roots.length;
    let ok = k + len <= kids.length;
    for (let q = 0; ok && q < len; q++) ok = kids[k + q] === B.roots[q] && !inc.dirty.has(B.roots[q]);
    if (!ok || !outsideAs(B.roots[0], B.rec.dir, W, H) || len > 1 && !outsideAs(B.roots[len - 1], B.rec.dir, W, H)) continue;
    if (!at) at = new Array(kids.length);
    at[k] = B;
    for (let q = 1; q < len; q++) at[k + q] = null;
    k += len - 1;
  }
  return at;
}
function outsideAs(el, dir, W, H) { const b = rectOf(el); return !inView(b, W, H) && dirOf(b, W, H) === dir; }

// blockOf keeps run r in the memo as a block: a block reused whole is
// carried to this pass; otherwise a new one is made of r's parts, and
// each root notes the block it is in (a root of a carried block is
// valid as long as the block is).
function blockOf(r, els, memo) {
  if (r.parts.length === 1 && typeof r.parts[0] !== 'number') {
    r.parts[0].gen = nextGen;
    return;
  }
  const roots = [];
  let targets = 0, walked = 0, sealable = true;
  for (const p of r.parts) {
    if (typeof p === 'number') {
      const M = memo.get(p);
      roots.push(els[p]);
      if (!M) { sealable = false; continue; }
      targets += M.targets; walked += M.walked;
      sealable = sealable && !!M.rect && !M.escapes && !M.controls;
    } else {
      for (const e of p.roots) roots.push(e);
      targets += p.targets; walked += p.walked;
      sealable = sealable && p.sealable;
    }
  }
  const B = { gen: nextGen, parent: r.host, roots, rect: roots.length ? (view.roots.get(roots[0]) || {}).rect : null, targets, walked, sealable,
    rec: { dir: r.dir, kind: r.kind, role: r.role, name: r.name, level: r.level, nodes: r.nodes, roles: Object.assign({}, r.roles), uniform: r.uniform } };
  if (!B.rect) B.sealable = false;
  // contiguous: no text but white space between the roots.
  B.contiguous = true;
  for (let k = 0; k + 1 < roots.length && B.contiguous; k++) {
    for (let x = nextSiblingOf(roots[k]); x && x !== roots[k + 1]; x = nextSiblingOf(x)) {
      if (typeOf(x) === 3 && dataOf(x).trim() !== '') { B.contiguous = false; break; }
      if (typeOf(x) === 1) { B.contiguous = false; break; } // an element between: not one run after all
    }
  }
  for (const e of roots) { const R = view.roots.get(e); if (R) R.run = B; }
  view.runs.set(roots[0], B);
}

// sealOf is the memo of c when its subtree can stand as one entry: it
// was wholly outside the viewport at the last pass, nothing in it or
// above it changed since, and nothing in it lies outside its own box.
function sealOf(inc, c) {
  if (typeOf(c) !== 1 || inc.dirty.has(c)) return null;
  const R = inc.roots.get(c);
  if (!R || R.gen !== inc.gen && !(R.run && R.run.gen === inc.gen) || R.escapes || R.controls) return null;
  if (!R.rect) {
    // A subtree with no box (display: none) is measured again: a
    // state change (:hover, :checked) may show it with no DOM change.
    const b = rectOf(c);
    if (b.width || b.height || b.x || b.y || rectsOf(c).length) return null;
  }
  return R;
}

// stillOutside measures again the first and last of each run of sealed
// siblings: a layout shift that brought one into view moves them too.
// Those that came into view (a row removed above them) are unsealed and
// walked, up to maxUnseal a run; the next one must still be outside.
const maxUnseal = 64;
function stillOutside(kids, seal, W, H) {
  const outside = k => {
    const b = rectOf(kids[k]);
    return !inView(b, W, H) && dirOf(b, W, H) === seal[k].dir;
  };
  for (let a = 0; a < kids.length; a++) {
    if (!seal[a] || !seal[a].rect || a > 0 && seal[a - 1] && seal[a - 1].rect) continue;
    let b = a;
    while (b + 1 < kids.length && seal[b + 1] && seal[b + 1].rect) b++;
    let n = 0;
    while (a <= b && !outside(a)) { seal[a++] = null; if (++n > maxUnseal) throw new Redo('a subtree outside the viewport moved'); }
    while (b > a && !outside(b)) { seal[b--] = null; if (++n > maxUnseal) throw new Redo('a subtree outside the viewport moved'); }
    a = b;
  }
}
