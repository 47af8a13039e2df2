// The viewport pass of a viewport-first capture. It runs in an isolated
// world, so the page's own scripts cannot patch the DOM methods it calls,
// and returns [json, nodes]: json describes the nodes that meet the viewport
// (grown by margin), their ancestors and the text inside them, and counts
// what lies wholly outside; nodes holds the same nodes in the same order, for
// their backendNodeIds (deep serialization). Everything it reads is the
// page's and untrusted; Go checks the shape.
(margin, step, maxKept, styleProps, maxShare) => {
  const out = { docs: [], tooMany: false, walked: 0, probes: 0, phases: {}, closed: [] };
  // Hit-test probes cost from tens of microseconds to a millisecond each
  // (deep inline layouts): they are bounded in number and time.
  const maxProbes = 400, maxProbeMS = 60;
  let clock = performance.now();
  const phase = name => { const now = performance.now(); out.phases[name] = (out.phases[name] || 0) + (now - clock); clock = now; };
  const nodes = [];
  const landmarkTags = { NAV: 'navigation', MAIN: 'main', ASIDE: 'complementary', TABLE: 'table', DIALOG: 'dialog', SEARCH: 'search' };
  const landmarkRoles = { banner: 1, navigation: 1, main: 1, contentinfo: 1, complementary: 1, region: 1, search: 1, form: 1, dialog: 1, alertdialog: 1, table: 1, grid: 1, list: 1, tree: 1, treegrid: 1 };
  const inputRoles = { checkbox: 'checkbox', radio: 'radio', button: 'button', submit: 'button', reset: 'button', image: 'button', range: 'slider', search: 'searchbox', hidden: '' };
  const clean = s => (s || '').replace(/\s+/g, ' ').trim().slice(0, 200);

  // draggable="true" (an enumerated attribute: ASCII case ignored) makes a
  // target of an element, as fuse's signals read it from the attributes.
  const draggable = el => { const v = el.getAttribute('draggable'); return v !== null && v.length === 4 && v.toLowerCase() === 'true'; };
  // roleOf approximates the role Chrome gives an element, for counting what
  // was not fetched: an explicit role, else the tag's; a draggable element
  // with neither is the role-less target fuse calls clickable.
  function roleOf(el) {
    const r = el.getAttribute('role');
    if (r) return r.trim().split(/\s+/)[0].toLowerCase();
    switch (el.tagName) {
      case 'A': return el.hasAttribute('href') ? 'link' : '';
      case 'BUTTON': case 'SUMMARY': return 'button';
      case 'INPUT': { const t = (el.getAttribute('type') || 'text').toLowerCase(); return t in inputRoles ? inputRoles[t] : 'textbox'; }
      case 'TEXTAREA': return 'textbox';
      case 'SELECT': return el.multiple || el.size > 1 ? 'listbox' : 'combobox';
      case 'OPTION': return 'option';
      case 'TR': return 'row';
      case 'LI': return 'listitem';
      case 'UL': case 'OL': return 'list';
      case 'H1': case 'H2': case 'H3': case 'H4': case 'H5': case 'H6': return 'heading';
      case 'IMG': return el.getAttribute('alt') === '' ? '' : 'image';
      case 'P': return 'paragraph';
      case 'FORM': return el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby') ? 'form' : '';
      case 'SECTION': return el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby') ? 'region' : '';
      case 'HEADER': return el.closest('article,aside,main,nav,section') ? '' : 'banner';
      case 'FOOTER': return el.closest('article,aside,main,nav,section') ? '' : 'contentinfo';
    }
    return landmarkTags[el.tagName] || (draggable(el) ? 'clickable' : '');
  }

  function walkDoc(doc, win, owner, parentDoc) {
    const m = margin;
    const root = doc.documentElement;
    const W = doc.compatMode === 'CSS1Compat' && root ? root.clientWidth : win.innerWidth;
    const H = doc.compatMode === 'CSS1Compat' && root ? root.clientHeight : win.innerHeight;
    const sx = win.scrollX, sy = win.scrollY;
    // 1. Every element (and open shadow root) in tree order, with its box.
    const els = [doc], par = [-1], rect = [null];
    const stack = [0];
    while (stack.length) {
      const i = stack.pop();
      const n = els[i];
      const kids = [];
      if (n.nodeType === 1 && n.shadowRoot) kids.push(n.shadowRoot);
      for (let c = n.firstElementChild; c; c = c.nextElementSibling) kids.push(c);
      for (let k = kids.length - 1; k >= 0; k--) {
        const c = kids[k];
        const j = els.length;
        els.push(c); par.push(i);
        let r = null;
        if (c.nodeType === 1) {
          const b = c.getBoundingClientRect();
          if (b.width || b.height || b.x || b.y || c.getClientRects().length) r = b;
        }
        rect.push(r);
        stack.push(j);
      }
      // Indexes are not tree order, but a child's always exceeds its
      // parent's; step 3 walks the real tree order.
    }
    out.walked += els.length;
    phase('boxes');
    return finishDoc(doc, win, owner, parentDoc, els, par, rect, W, H, sx, sy);
  }

  // A box with no area has no place to lie in (fuse gives it no direction):
  // it stays, wherever it is.
  const inView = (r, W, H) => r && (r.width === 0 && r.height === 0 || !(r.top >= H + margin || r.bottom <= -margin || r.left >= W + margin || r.right <= -margin));
  // likelyTarget is fuse's DOM-only sign of a target, counted below kept
  // nodes for what was left out (a listener on a container of many targets
  // delegates).
  const likelyTarget = el => {
    switch (el.tagName) {
      case 'BUTTON': case 'INPUT': case 'SELECT': case 'TEXTAREA': return true;
      case 'A': return el.hasAttribute('href');
    }
    const t = el.getAttribute('tabindex');
    return t !== null && !t.trim().startsWith('-');
  };
  const nativeClick = el => {
    switch (el.tagName) {
      case 'A': case 'AREA': return el.hasAttribute('href');
      case 'BUTTON': case 'SELECT': case 'TEXTAREA': case 'LABEL': case 'SUMMARY': return !el.disabled;
      case 'INPUT': return el.type !== 'hidden' && !el.disabled;
      case 'OBJECT': case 'EMBED': return true;
      case 'VIDEO': case 'AUDIO': return el.hasAttribute('controls');
    }
    return el.isContentEditable === true;
  };
  const dirOf = (r, W, H) => r.top >= H + margin ? 'below' : r.bottom <= -margin ? 'above' : r.left >= W + margin ? 'right' : 'left';

  function finishDoc(doc, win, owner, parentDoc, els, par, rect, W, H, sx, sy) {
    const n = els.length;
    const keep = new Uint8Array(n);
    for (let i = 1; i < n; i++) if (inView(rect[i], W, H)) keep[i] = 1;
    const index = new Map();
    for (let i = 0; i < n; i++) index.set(els[i], i);
    // A select's options have no box of their own; the select stands for
    // them. A hidden control inside a label in view makes the label the
    // thing to click.
    for (let i = 1; i < n; i++) {
      if (keep[i] || els[i].nodeType !== 1) continue;
      const tag = els[i].tagName;
      if (par[i] > 0 && keep[par[i]] && els[par[i]].tagName === 'SELECT') keep[i] = 1;
      else if (!rect[i] && (tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA')) {
        const label = els[i].closest('label');
        if (label && inView(rect[index.get(label)], W, H)) keep[i] = 1;
      }
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
        for (let c = els[i].firstChild; c; c = c.nextSibling) if (c.nodeType === 3 && c.data.trim() !== '') texts++;
      }
      if (kept + texts > maxShare * n) { out.tooShare = kept + texts; return null; }
    }

    // 2. What lies outside: each element that is not kept belongs to the
    // subtree of its topmost unkept ancestor (a child of a kept node).
    const rootOf = new Int32Array(n).fill(-1);
    const roles = new Map(), sizes = new Map();
    const targetsBelow = new Int32Array(n);
    for (let i = 1; i < n; i++) {
      if (keep[i]) continue;
      const p = par[i];
      const r = keep[p] ? i : rootOf[p];
      rootOf[i] = r;
      if (els[i].nodeType === 1 && likelyTarget(els[i])) targetsBelow[par[r]]++;
      if (!rect[i] || els[i].nodeType !== 1) continue;
      sizes.set(r, (sizes.get(r) || 0) + 1);
      if (r === i) continue; // the root's own role is the run's
      const role = roleOf(els[i]);
      if (!role) continue;
      let m = roles.get(r);
      if (!m) roles.set(r, m = {});
      m[role] = (m[role] || 0) + 1;
    }

    phase('count');
    // 3. The kept nodes in tree order (text nodes interleaved), with runs of
    // unkept siblings between them.
    const d = { url: doc.URL, title: doc.title || '', scrollX: sx, scrollY: sy, width: W, height: H,
      contentWidth: doc.documentElement ? doc.documentElement.scrollWidth : 0,
      contentHeight: doc.documentElement ? doc.documentElement.scrollHeight : 0,
      dpr: win.devicePixelRatio, owner: owner, parentDoc: parentDoc, base: nodes.length,
      styles: [], nodes: [], elided: [] };
    const docIndex = out.docs.length;
    out.docs.push(d);
    const styleIndex = new Map();
    const outOf = new Int32Array(n).fill(-1);
    const probeEls = [];
    const range = doc.createRange();
    const box = r => [r.left + sx, r.top + sy, r.width, r.height];
    const styleOf = (el, pseudo) => {
      const cs = win.getComputedStyle(el, pseudo);
      const vals = styleProps.map(p => cs.getPropertyValue(p));
      const key = vals.join('\u0000');
      let s = styleIndex.get(key);
      if (s === undefined) { s = d.styles.length; d.styles.push(vals); styleIndex.set(key, s); }
      return [s, vals];
    };
    const frames = [];
    const emit = (node, parentOut, extra) => {
      const o = Object.assign({ parent: parentOut, type: node.nodeType, name: node.nodeName }, extra);
      d.nodes.push(o);
      nodes.push(node);
      return d.nodes.length - 1;
    };
    const areas = []; // rects of fixed, sticky and absolute boxes, for grid probes
    // layer is, per kept node, the out index of the box that paints it as a
    // unit, as Chrome numbers paint order: the root, a positioned box, a
    // translucent one. Normal flow inside a layer shares its number.
    const layer = [];
    const walkOut = (i, parentOut, stacked) => {
      const el = els[i];
      const o = {};
      if (el.nodeType === 1) {
        const a = [];
        for (const at of el.attributes) a.push(at.name, at.value.length > 10000 ? at.value.slice(0, 10000) : at.value);
        o.attrs = a;
        if (el.tagName === 'INPUT' && el.type !== 'password' || el.tagName === 'TEXTAREA') o.inputValue = String(el.value).slice(0, 10000);
        if (el.tagName === 'INPUT' && el.checked) o.checked = true;
        if (el.tagName === 'OPTION' && el.selected) o.selected = true;
        if (nativeClick(el)) o.clickable = true;
        if (targetsBelow[i]) o.elidedTargets = targetsBelow[i];
        if (rect[i]) {
          const [s, vals] = styleOf(el);
          o.layout = { bounds: box(rect[i]), style: s };
          // Positioned and translucent boxes paint as units (layers), after
          // the normal flow of the layer they sit in, in tree order. A
          // z-index, or the top layer (a modal dialog, an open popover),
          // takes a layer out of tree order: probes look there.
          if (vals[7] !== 'static' || vals[2] !== '1') o.layerRoot = true;
          const top = el.matches(':modal, :popover-open');
          if (vals[9] !== 'auto' || top) {
            o.layerRoot = true;
            stacked = true;
            if (vals[7] !== 'relative' && vals[7] !== 'static' || top) areas.push(rect[i]);
          }
          if (vals[5] !== 'visible' || vals[6] !== 'visible') {
            o.layout.client = [el.clientLeft, el.clientTop, el.clientWidth, el.clientHeight];
            o.layout.scroll = [el.scrollLeft, el.scrollTop, el.scrollWidth, el.scrollHeight];
          }
          if (stacked) probeEls.push(i);
        }
      } else if (el.nodeType === 11) {
        o.shadowRootType = el.mode;
      }
      const me = emit(el, parentOut, o);
      outOf[i] = me;
      layer[me] = parentOut < 0 ? me : layer[parentOut];
      if (o.layout && (el === doc.documentElement || o.layerRoot)) layer[me] = me;
      delete o.layerRoot;
      if (o.layout) generated(el, me, '::before');
      if ((el.tagName === 'IFRAME' || el.tagName === 'FRAME') && rect[i]) frames.push([el, me]);
      // Children in tree order: the shadow root, then child nodes. The
      // subtree is whole when nothing rendered in it was left out.
      let cur = null, after = -1;
      let whole = el.tagName !== 'IFRAME' && el.tagName !== 'FRAME' && el.tagName !== 'OBJECT' && el.tagName !== 'EMBED';
      const kid = c => {
        const j = index.get(c);
        if (j === undefined) return;
        if (keep[j]) { whole = walkOut(j, me, stacked) && whole; cur = null; after = outOf[j]; return; }
        if (c.nodeType === 11 || c.nodeType === 1 && rect[j]) whole = false;
        if (!rect[j] || c.nodeType !== 1) return;
        const dir = dirOf(rect[j], W, H);
        let role = roleOf(c);
        const level = /^H[1-6]$/.test(c.tagName) ? +c.tagName[1] : +(c.getAttribute('aria-level') || 0);
        const kind = role === 'heading' ? 'heading' : landmarkRoles[role] && (role !== 'list' || c.hasAttribute('aria-label')) ? 'landmark' : 'plain';
        const counts = roles.get(j) || {};
        const size = sizes.get(j) || 1;
        if (kind === 'plain' && cur && cur.dir === dir && cur.kind !== 'landmark') {
          if (cur.kind === 'plain' && cur.role !== role) cur.role = 'group';
          if (role) cur.roles[role] = (cur.roles[role] || 0) + 1;
          for (const k in counts) cur.roles[k] = (cur.roles[k] || 0) + counts[k];
          cur.nodes += size;
          cur.roots.push(c);
          return;
        }
        cur = { parent: me, after, dir, kind, role: role || 'group', name: '', level: kind === 'heading' ? level : 0, nodes: size, roles: Object.assign({}, counts), roots: [c] };
        if (kind === 'plain' && role) cur.roles[role] = (cur.roles[role] || 0) + 1;
        if (kind !== 'plain') cur.name = clean(c.getAttribute('aria-label') || (kind === 'heading' ? c.textContent : ''));
        d.elided.push(cur);
      };
      if (el.nodeType === 1 && el.shadowRoot) kid(el.shadowRoot);
      for (let c = el.firstChild; c; c = c.nextSibling) {
        if (c.nodeType === 3) {
          if (el.nodeType !== 1 || el.tagName === 'SCRIPT' || el.tagName === 'STYLE') continue;
          range.selectNodeContents(c);
          const rs = range.getClientRects();
          if (!rs.length) continue;
          const b = range.getBoundingClientRect();
          if (!inView(b, W, H)) { whole = false; continue; }
          const frags = [];
          for (const r of rs) if (r.width || r.height) frags.push(box(r));
          const v = c.nodeValue.length > 10000 ? c.nodeValue.slice(0, 10000) : c.nodeValue;
          const style = o.layout ? o.layout.style : styleOf(el)[0];
          const t = emit(c, me, { value: v, layout: { bounds: box(b), style, text: v.replace(/\s+/g, ' '), fragments: frags } });
          layer[t] = layer[me];
        } else if (c.nodeType === 1) {
          kid(c);
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
    const generated = (el, me, which) => {
      const cs = win.getComputedStyle(el, which);
      const c = cs.getPropertyValue('content');
      if (!c || c === 'none' || c === 'normal' || cs.display === 'none') return;
      let text = '';
      for (const m of c.matchAll(/"((?:[^"\\]|\\.)*)"|attr\(\s*([\w-]+)\s*\)/g)) {
        text += m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : (el.getAttribute(m[2]) || '');
      }
      if (!text.trim()) return;
      const b = d.nodes[me].layout.bounds;
      const k = emit(el, me, { name: which, pseudoType: which.slice(2), layout: { bounds: b, style: styleOf(el, which)[0], text: text.slice(0, 10000), fragments: [b] } });
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
    d.elided = d.elided.filter(r => Object.keys(r.roles).length || r.roots.some(e => e.textContent.trim() !== ''));
    for (const r of d.elided) { delete r.kind; delete r.roots; }
    phase('describe');

    // 4. Paint order: boxes in normal flow paint in tree order; where
    // positioned boxes are, the browser's own hit-test stacks
    // (elementsFromPoint at their centres and on a grid over fixed, sticky
    // and absolute boxes) say which box lies over which. Probes cost tens
    // to hundreds of microseconds each, so they are bounded.
    const before = new Map(); // out index -> out indexes painted before it
    let probes = 0;
    const probeDeadline = performance.now() + maxProbeMS;
    const probe = (x, y) => {
      if (x < 0 || y < 0 || x >= W || y >= H || probes >= maxProbes || performance.now() > probeDeadline) return;
      probes++;
      const stack = doc.elementsFromPoint(x, y);
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
    const order = new Int32Array(d.nodes.length);
    const state = new Uint8Array(d.nodes.length); // 0 new, 1 visiting, 2 done
    let next = 1;
    for (let k = 0; k < d.nodes.length; k++) {
      if (state[k] || layer[k] !== k) continue;
      const todo = [k];
      while (todo.length) {
        const v = todo[todo.length - 1];
        if (state[v] === 0) {
          state[v] = 1;
          const s = before.get(v);
          if (s) for (const u of s) if (state[u] === 0) todo.push(u);
          continue;
        }
        todo.pop();
        if (state[v] === 1) { state[v] = 2; order[v] = next++; }
      }
    }
    for (let k = 0; k < d.nodes.length; k++) {
      const o = d.nodes[k];
      if (!o.layout) continue;
      o.layout.paintOrder = order[layer[k]];
    }
    phase('paint order');

    // 5. Same-origin iframes in view get their own pass; others are left to
    // the caller (out-of-process frames have their own target; a
    // cross-origin frame in this process, listed in closed, has none).
    for (const [el, me] of frames) {
      let cd = null;
      try { cd = el.contentDocument; } catch (e) { cd = null; }
      if (cd && el.contentWindow) walkDoc(cd, el.contentWindow, me, docIndex);
      else out.closed.push(d.base + me);
    }
    return d;
  }

  walkDoc(document, window, -1, -1);
  if (out.tooMany) return [JSON.stringify({ tooMany: true, walked: out.walked }), []];
  if (out.tooShare) return [JSON.stringify({ tooShare: out.tooShare, walked: out.walked }), []];
  return [JSON.stringify(out), nodes];
}
