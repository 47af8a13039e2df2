/* global styleProps, styleAttrs:writable, out, nodes, emitted, flat:writable, view, nextGen, inView, dirOf, unionOf, blockOf, roleOf, landmarkRoles, clean, likelyTarget, nativeClick, typeOf, nodeNameOf, tagOf, shadowOf, attrsOf, attr, hasAttr, textOf, nodeValueOf, firstChildOf, nextSiblingOf, docElOf, urlOf, titleOf, modeOf, matchesOf, clientOf, scrollOf, own, inputGets, textareaGets, optionSelectedGet, scrollWidthGet, scrollHeightGet, createRange, styleSheetsGet, adoptedDesc, srSheetsGet, srAdoptedDesc */
// Step 3 of the viewport pass (viewport.js, finish.js): the kept nodes of
// a document in tree order (text nodes interleaved), with runs of unkept
// siblings between them.

// describeDoc describes the document F (finishDoc's) into out.docs and
// gives its description, d. F gains what steps 4 and 5 read: the out
// index of each element (outOf), each node's layer, the positioned boxes
// (areas) and elements to probe, the frames in view and d's index.
function describeDoc(F) {
  const { doc, win, owner, parentDoc, els, rect, under, block, W, H, sx, sy, inc, n, keep, index, roles, sizes, targetsBelow, memo } = F;
  // 3. The kept nodes in tree order (text nodes interleaved), with runs of
  // unkept siblings between them.
  const docEl = docElOf(doc);
  const d = { url: urlOf(doc), title: titleOf(doc) || '', scrollX: sx, scrollY: sy, width: W, height: H,
    contentWidth: docEl ? scrollWidthGet.call(docEl) : 0,
    contentHeight: docEl ? scrollHeightGet.call(docEl) : 0,
    dpr: win.devicePixelRatio, owner: owner, parentDoc: parentDoc, base: flat,
    styles: [], nodes: [], elided: [] };
  const docIndex = out.docs.length;
  out.docs.push(d);
  const styleIndex = new Map();
  const outOf = new Int32Array(n).fill(-1);
  const probeEls = [];
  const range = createRange.call(doc);
  const box = r => [r.left + sx, r.top + sy, r.width, r.height];
  const styleOf = (el, pseudo) => {
    const cs = win.getComputedStyle(el, pseudo);
    const vals = styleReads(cs).map((k, i) => k ? cs[k] : cs.getPropertyValue(styleProps[i]));
    const key = vals.join('\u0000');
    let s = styleIndex.get(key);
    if (s === undefined) { s = d.styles.length; d.styles.push(vals); styleIndex.set(key, s); }
    return [s, vals, key];
  };
  const frames = [];
  const emit = (node, parentOut, extra) => {
    const o = Object.assign({ parent: parentOut, type: typeOf(node), name: nodeNameOf(node) }, extra);
    d.nodes.push(o);
    flat++;
    // Each node has a number in the memo (id). Its backendNodeId comes
    // by deep serialization (nid, into nodes) unless the memo's pass
    // gave it already: that costs the browser ~0.1 ms a node.
    let id = view.ids.get(node);
    if (id === undefined) view.ids.set(node, id = ++view.lastId);
    o.id = id;
    if (o.pseudoType !== undefined || inc && view.emitted.get(node) === inc.gen) {
      o.nid = -1;
    } else {
      o.nid = nodes.length;
      nodes.push(node);
    }
    if (o.pseudoType === undefined) emitted.push(node);
    return d.nodes.length - 1;
  };
  const areas = []; // rects of fixed, sticky and absolute boxes, for grid probes
  // layer is, per kept node, the out index of the box that paints it as a
  // unit, as Chrome numbers paint order: the root, a positioned box, a
  // translucent one. Normal flow inside a layer shares its number.
  const layer = [];
  const walkOut = (i, parentOut, stacked) => {
    const el = els[i];
    const type = typeOf(el), tag = type === 1 ? tagOf(el) : undefined;
    // A kept node is no subtree outside the viewport: its old memo goes
    // (it may hold a block of removed nodes).
    if (type === 1) { view.roots.delete(el); view.runs.delete(el); }
    const o = {};
    if (type === 1) {
      const a = [];
      for (const at of attrsOf(el)) a.push(at.name, at.value.length > 10000 ? at.value.slice(0, 10000) : at.value);
      o.attrs = a;
      if (tag === 'INPUT' && own(inputGets.type, el) !== 'password') o.inputValue = String(own(inputGets.value, el)).slice(0, 10000);
      else if (tag === 'TEXTAREA') o.inputValue = String(own(textareaGets.value, el)).slice(0, 10000);
      if (tag === 'INPUT' && own(inputGets.checked, el)) o.checked = true;
      if (tag === 'OPTION' && own(optionSelectedGet, el)) o.selected = true;
      if (nativeClick(el)) o.clickable = true;
      if (targetsBelow[i]) o.elidedTargets = targetsBelow[i];
      if (rect[i]) {
        const [s, vals, key] = styleOf(el);
        // A node whose style changed may have changed its AX node too.
        if (inc && view.styles.get(el) !== key) o.fresh = 1;
        view.styles.set(el, key);
        o.layout = { bounds: box(rect[i]), style: s };
        // Positioned and translucent boxes paint as units (layers), after
        // the normal flow of the layer they sit in, in tree order. A
        // z-index, or the top layer (a modal dialog, an open popover),
        // takes a layer out of tree order: probes look there.
        if (vals[7] !== 'static' || vals[2] !== '1') o.layerRoot = true;
        const top = matchesOf(el, ':modal, :popover-open');
        if (vals[9] !== 'auto' || top) {
          o.layerRoot = true;
          stacked = true;
          if (vals[7] !== 'relative' && vals[7] !== 'static' || top) areas.push(rect[i]);
        }
        if (vals[5] !== 'visible' || vals[6] !== 'visible') {
          o.layout.client = clientOf(el);
          o.layout.scroll = scrollOf(el);
        }
        if (stacked) probeEls.push(i);
      }
    } else if (type === 11) {
      o.shadowRootType = modeOf(el);
    }
    // fresh 1: the node or its subtree changed; 2: only something below
    // it did (Go may keep the AX node of a role named by no content).
    if (inc && (under[i] || inc.touched.has(el) || inc.changed.has(el))) o.fresh = 1;
    else if (inc && inc.dirty.has(el) && !o.fresh) o.fresh = 2;
    if (inc && inc.onattr.has(el)) o.lfresh = 1;
    const textFresh = inc && (inc.dirty.has(el) || under[i]);
    const me = emit(el, parentOut, o);
    outOf[i] = me;
    layer[me] = parentOut < 0 ? me : layer[parentOut];
    if (o.layout && (el === docEl || o.layerRoot)) layer[me] = me;
    delete o.layerRoot;
    if (o.layout) generated(el, me, '::before');
    if ((tag === 'IFRAME' || tag === 'FRAME') && rect[i]) frames.push([el, me]);
    // Children in tree order: the shadow root, then child nodes. The
    // subtree is whole when nothing rendered in it was left out.
    let cur = null, after = -1;
    let whole = tag !== 'IFRAME' && tag !== 'FRAME' && tag !== 'OBJECT' && tag !== 'EMBED';
    // kid adds child c; for a block it returns the block.
    const kid = c => {
      const j = index.get(c);
      if (j === undefined) return;
      if (keep[j]) { whole = walkOut(j, me, stacked) && whole; cur = null; after = outOf[j]; return; }
      const ct = typeOf(c);
      if (ct === 11 || ct === 1 && rect[j]) whole = false;
      const Bk = block[j];
      if (Bk) {
        const R = Bk.rec;
        if (R.kind === 'plain' && cur && cur.dir === R.dir && cur.kind !== 'landmark') {
          if (cur.kind === 'plain' && !(R.uniform && cur.role === R.uniform)) cur.role = 'group';
          cur.uniform = cur.uniform && cur.uniform === R.uniform ? cur.uniform : '';
          for (const k in R.roles) cur.roles[k] = (cur.roles[k] || 0) + R.roles[k];
          cur.nodes += R.nodes;
          cur.parts.push(Bk);
        } else {
          cur = { parent: me, after, dir: R.dir, kind: R.kind, role: R.role, name: R.name, level: R.level, nodes: R.nodes,
            roles: Object.assign({}, R.roles), parts: [Bk], uniform: R.uniform, host: el };
          d.elided.push(cur);
        }
        return Bk;
      }
      if (!rect[j] || ct !== 1) return;
      const dir = dirOf(rect[j], W, H);
      let role = roleOf(c);
      const ctag = tagOf(c);
      const level = /^H[1-6]$/.test(ctag) ? +ctag[1] : +(attr(c, 'aria-level') || 0);
      const kind = role === 'heading' ? 'heading' : landmarkRoles[role] && (role !== 'list' || hasAttr(c, 'aria-label')) ? 'landmark' : 'plain';
      const counts = roles.get(j) || {};
      const size = sizes.get(j) || 1;
      if (kind === 'plain' && cur && cur.dir === dir && cur.kind !== 'landmark') {
        if (cur.kind === 'plain' && cur.role !== role) cur.role = 'group';
        if (role) cur.roles[role] = (cur.roles[role] || 0) + 1;
        for (const k in counts) cur.roles[k] = (cur.roles[k] || 0) + counts[k];
        cur.nodes += size;
        cur.parts.push(j);
        if (cur.uniform !== role) cur.uniform = '';
        return;
      }
      cur = { parent: me, after, dir, kind, role: role || 'group', name: '', level: kind === 'heading' ? level : 0, nodes: size,
        roles: Object.assign({}, counts), parts: [j], uniform: role, host: el };
      if (kind === 'plain' && role) cur.roles[role] = (cur.roles[role] || 0) + 1;
      if (kind !== 'plain') cur.name = clean(attr(c, 'aria-label') || (kind === 'heading' ? textOf(c) : ''));
      d.elided.push(cur);
    };
    if (type === 1) { const sr = shadowOf(el); if (sr) kid(sr); }
    for (let c = firstChildOf(el); c; c = nextSiblingOf(c)) {
      const ct = typeOf(c);
      if (ct === 1) {
        // A block's roots are one entry; the walk goes on after its last
        // root unless text between them may show (or has changed).
        const B = kid(c);
        if (B && B.contiguous && !inc.changed.has(el)) c = B.roots[B.roots.length - 1];
        continue;
      }
      if (ct === 3) {
        if (type !== 1 || tag === 'SCRIPT' || tag === 'STYLE') continue;
        range.selectNodeContents(c);
        const rs = range.getClientRects();
        if (!rs.length) continue;
        const b = unionOf(rs);
        if (!inView(b, W, H)) { whole = false; continue; }
        const frags = [];
        for (const r of rs) if (r.width || r.height) frags.push(box(r));
        // Lines of no size (font-size-adjust: 0) are kept as Chrome's
        // own capture keeps them, so that sight knows the text has none.
        if (!frags.length) for (let k = 0; k < rs.length && k < 4; k++) frags.push(box(rs[k]));
        const nv = nodeValueOf(c);
        const v = nv.length > 10000 ? nv.slice(0, 10000) : nv;
        const style = o.layout ? o.layout.style : styleOf(el)[0];
        const t = emit(c, me, { value: v, layout: { bounds: box(b), style, text: v.replace(/\s+/g, ' '), fragments: frags } });
        if (textFresh) d.nodes[t].fresh = 1;
        layer[t] = layer[me];
      }
    }
    if (o.layout) generated(el, me, '::after');
    complete[me] = whole;
    return whole;
  };
  // Generated text (::before, ::after): the AX fetch of a viewport
  // capture does not reach it, so the pass reads it here, with its own
  // style, standing in its element's box (a pseudo element has no box
  // to read), for fuse to print and judge as the full capture does.
  const mayGen = mayGenerate(doc, els);
  const generated = (el, me, which) => {
    if (!mayGen) return;
    const cs = win.getComputedStyle(el, which);
    const c = cs.getPropertyValue('content');
    if (!c || c === 'none' || c === 'normal' || cs.display === 'none') return;
    // What follows a top-level "/" is the content's alt text: named,
    // never painted, so not text a person sees.
    let text = '', alt = '', inAlt = false;
    for (const m of c.matchAll(/"((?:[^"\\]|\\.)*)"|attr\(\s*([\w-]+)\s*\)|(\/)/g)) {
      if (m[3] !== undefined) { inAlt = true; continue; }
      const part = m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : (attr(el, m[2]) || '');
      if (inAlt) alt += part; else text += part;
    }
    if (!text.trim() && !alt.trim()) return;
    const b = d.nodes[me].layout.bounds;
    const o = { name: which, pseudoType: which.slice(2), layout: { bounds: b, style: styleOf(el, which)[0], text: text.trim() ? text.slice(0, 10000) : '', fragments: [b] } };
    if (alt.trim() && !text.trim()) o.altText = alt.slice(0, 10000);
    const k = emit(el, me, o);
    layer[k] = layer[me];
  };
  const complete = [];
  walkOut(0, -1, false);
  // Listeners of a whole subtree come in one query; the nodes above
  // them one at a time.
  d.whole = [];
  d.above = [];
  for (let k = 0; k < d.nodes.length; k++) {
    const p = d.nodes[k].parent;
    if (p >= 0 && complete[p]) continue;
    if (complete[k] && d.nodes[k].type !== 11) d.whole.push(k);
    else if (d.nodes[k].type !== 11) d.above.push(k);
  }
  // A run with nothing to count and no text would fuse to nothing.
  // Each run is kept in the memo as a block for the next pass.
  for (const r of d.elided) blockOf(r, els, memo);
  const hasText = B => B.hasText !== undefined ? B.hasText : (B.hasText = B.roots.some(e => textOf(e).trim() !== ''));
  d.elided = d.elided.filter(r => Object.keys(r.roles).length || r.parts.some(p => typeof p === 'number' ? textOf(els[p]).trim() !== '' : hasText(p)));
  for (const r of d.elided) { delete r.kind; delete r.parts; delete r.uniform; delete r.host; }
  Object.assign(F, { docIndex, outOf, layer, areas, probeEls, frames });
  return d;
}

// mayGenerate tells whether a style sheet in reach — the document's,
// adopted ones, those of the shadow roots walked (els) — has a rule that
// names ::before or ::after. Without one no element has generated text
// (the UA sheet's only generated content is a q's quotes, which carry no
// string), and describing an element skips two style reads. A sheet it cannot read (cross-origin) or past maxRuleScan
// rules in all counts as naming them. It scans anew at every pass: a
// selector edited through the CSSOM adds no rule.
const maxRuleScan = 4000;
const pseudoSel = /:(before|after)\b/i;
function mayGenerate(doc, els) {
  let budget = maxRuleScan;
  const namesPseudo = rules => {
    for (const r of rules) {
      if (--budget < 0) return true;
      const sel = r.selectorText;
      if (typeof sel === 'string' && pseudoSel.test(sel)) return true;
      if (r.styleSheet && sheetNames(r.styleSheet)) return true; // @import
      if (r.cssRules && namesPseudo(r.cssRules)) return true; // @media, @supports, @layer, nesting
    }
    return false;
  };
  const sheetNames = sh => { try { return namesPseudo(sh.cssRules); } catch (e) { return true; } };
  const scopeNames = (sheets, adopted) => {
    for (const sh of sheets) if (sheetNames(sh)) return true;
    for (const sh of adopted || []) if (sheetNames(sh)) return true;
    return false;
  };
  if (scopeNames(styleSheetsGet.call(doc), adoptedDesc ? adoptedDesc.get.call(doc) : null)) return true;
  for (const n of els) {
    if (typeOf(n) !== 11) continue;
    if (scopeNames(srSheetsGet.call(n), srAdoptedDesc ? srAdoptedDesc.get.call(n) : null)) return true;
  }
  return false;
}

// styleReads names, for each style property, the declaration's own
// attribute that reads it (cs.backgroundColor for background-color):
// 4,000 reads cost ~1.9 ms that way and ~2.4 ms through
// getPropertyValue, which parses the name each time. null: no such
// attribute, getPropertyValue reads it.
function styleReads(cs) {
  return styleAttrs || (styleAttrs = styleProps.map(p => {
    const k = p === 'float' ? 'cssFloat' : p.replace(/^-webkit-/, 'webkit-').replace(/-([a-z])/g, (_, c) => c.toUpperCase());
    return k in cs ? k : null;
  }));
}
