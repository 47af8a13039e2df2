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
(margin, step, maxKept, styleProps, maxShare, expect, token) => {
  // DOM clobbering: a form's controls and a document's named elements
  // ([LegacyOverrideBuiltIns], in every world) shadow the DOM's own
  // properties: <form><input name="nodeType"></form> makes form.nodeType
  // the input, <img name="elementFromPoint"> makes
  // document.elementFromPoint the img. The pass reads page nodes and
  // documents only through the DOM's own accessors and methods, taken here
  // from this world's prototypes, which the page cannot reach.
  const get = (proto, name) => Object.getOwnPropertyDescriptor(proto, name).get;
  const NodeP = Node.prototype, ElP = Element.prototype, DocP = Document.prototype;
  const typeGet = get(NodeP, 'nodeType'), nodeNameGet = get(NodeP, 'nodeName'), parentGet = get(NodeP, 'parentNode'),
    firstChildGet = get(NodeP, 'firstChild'), nextSiblingGet = get(NodeP, 'nextSibling'),
    textGet = get(NodeP, 'textContent'), nodeValueGet = get(NodeP, 'nodeValue'), dataGet = get(CharacterData.prototype, 'data');
  const tagGet = get(ElP, 'tagName'), nsGet = get(ElP, 'namespaceURI'), attrsGet = get(ElP, 'attributes'), shadowGet = get(ElP, 'shadowRoot'),
    firstElGet = get(ElP, 'firstElementChild'), nextElGet = get(ElP, 'nextElementSibling'),
    docFirstElGet = get(DocP, 'firstElementChild'), fragFirstElGet = get(DocumentFragment.prototype, 'firstElementChild');
  const clientGets = ['clientLeft', 'clientTop', 'clientWidth', 'clientHeight'].map(p => get(ElP, p));
  const scrollGets = ['scrollLeft', 'scrollTop', 'scrollWidth', 'scrollHeight'].map(p => get(ElP, p));
  const [, , clientWidthGet, clientHeightGet] = clientGets, [, , scrollWidthGet, scrollHeightGet] = scrollGets;
  const { getAttribute, hasAttribute, getBoundingClientRect, getClientRects, closest, matches, querySelector } = ElP;
  const editableGet = get(HTMLElement.prototype, 'isContentEditable');
  const docElGet = get(DocP, 'documentElement'), compatGet = get(DocP, 'compatMode'), urlGet = get(DocP, 'URL'), titleGet = get(DocP, 'title'),
    styleSheetsGet = get(DocP, 'styleSheets');
  const { createRange, elementFromPoint, elementsFromPoint, getAnimations } = DocP;
  const adoptedDesc = Object.getOwnPropertyDescriptor(DocP, 'adoptedStyleSheets');
  const hostGet = get(ShadowRoot.prototype, 'host'), modeGet = get(ShadowRoot.prototype, 'mode');
  const srSheetsGet = get(ShadowRoot.prototype, 'styleSheets'), srAdoptedDesc = Object.getOwnPropertyDescriptor(ShadowRoot.prototype, 'adoptedStyleSheets');
  // Nodes.
  const typeOf = n => typeGet.call(n);
  const nodeNameOf = n => nodeNameGet.call(n);
  const nameOf = n => nodeNameGet.call(n).toUpperCase();
  const parentOf = n => parentGet.call(n);
  const flatParent = n => parentGet.call(n) || (typeGet.call(n) === 11 ? hostGet.call(n) : null);
  const firstChildOf = n => firstChildGet.call(n);
  const nextSiblingOf = n => nextSiblingGet.call(n);
  const textOf = n => textGet.call(n);
  const nodeValueOf = n => nodeValueGet.call(n);
  const dataOf = n => dataGet.call(n);
  // Elements (tagOf, shadowOf: of an element only).
  const tagOf = el => tagGet.call(el);
  const shadowOf = el => shadowGet.call(el);
  const attrsOf = el => attrsGet.call(el);
  // firstElementChild is the document's, a fragment's (a shadow root) or an element's own.
  const firstElOf = n => { const t = typeGet.call(n); return (t === 1 ? firstElGet : t === 9 ? docFirstElGet : fragFirstElGet).call(n); };
  const nextElOf = el => nextElGet.call(el);
  const attr = (el, name) => getAttribute.call(el, name);
  const hasAttr = (el, name) => hasAttribute.call(el, name);
  const rectOf = el => getBoundingClientRect.call(el);
  const rectsOf = el => getClientRects.call(el);
  const closestOf = (el, sel) => closest.call(el, sel);
  const matchesOf = (el, sel) => matches.call(el, sel);
  const query = (el, sel) => querySelector.call(el, sel);
  const clientOf = el => clientGets.map(g => g.call(el));
  const scrollOf = el => scrollGets.map(g => g.call(el));
  // An element's own property by its interface's getter (the code reads
  // them by tag): undefined where the element is not of that interface
  // (an element named so in another namespace), as a plain read gives.
  const own = (g, el) => { try { return g.call(el); } catch (e) { return undefined; } };
  const htmlNS = 'http://www.w3.org/1999/xhtml';
  const editable = el => nsGet.call(el) === htmlNS && own(editableGet, el) === true;
  const inputGets = { type: get(HTMLInputElement.prototype, 'type'), value: get(HTMLInputElement.prototype, 'value'),
    checked: get(HTMLInputElement.prototype, 'checked'), disabled: get(HTMLInputElement.prototype, 'disabled') };
  const textareaGets = { value: get(HTMLTextAreaElement.prototype, 'value'), disabled: get(HTMLTextAreaElement.prototype, 'disabled') };
  const selectGets = { multiple: get(HTMLSelectElement.prototype, 'multiple'), size: get(HTMLSelectElement.prototype, 'size'), disabled: get(HTMLSelectElement.prototype, 'disabled') };
  const buttonDisabledGet = get(HTMLButtonElement.prototype, 'disabled'), optionSelectedGet = get(HTMLOptionElement.prototype, 'selected');
  const frameGets = { IFRAME: [get(HTMLIFrameElement.prototype, 'contentDocument'), get(HTMLIFrameElement.prototype, 'contentWindow')],
    FRAME: [get(HTMLFrameElement.prototype, 'contentDocument'), get(HTMLFrameElement.prototype, 'contentWindow')] };
  // Documents and shadow roots.
  const docElOf = doc => docElGet.call(doc);
  const compatOf = doc => compatGet.call(doc);
  const urlOf = doc => urlGet.call(doc);
  const titleOf = doc => titleGet.call(doc);
  const hostOf = sr => hostGet.call(sr);
  const modeOf = sr => modeGet.call(sr);

  const out = { docs: [], tooMany: false, walked: 0, probes: 0, phases: {}, closed: [], incremental: false, gen: 0, why: '' };
  // Hit-test probes cost from tens of microseconds to a millisecond each
  // (deep inline layouts): they are bounded in number and time.
  const maxProbes = 400, maxProbeMS = 60;
  let clock = performance.now();
  const phase = name => { const now = performance.now(); out.phases[name] = (out.phases[name] || 0) + (now - clock); clock = now; };
  const nodes = [], emitted = [];
  let flat = 0;
  const landmarkTags = { NAV: 'navigation', MAIN: 'main', ASIDE: 'complementary', TABLE: 'table', DIALOG: 'dialog', SEARCH: 'search' };
  const landmarkRoles = { banner: 1, navigation: 1, main: 1, contentinfo: 1, complementary: 1, region: 1, search: 1, form: 1, dialog: 1, alertdialog: 1, table: 1, grid: 1, list: 1, tree: 1, treegrid: 1 };
  const inputRoles = { checkbox: 'checkbox', radio: 'radio', button: 'button', submit: 'button', reset: 'button', image: 'button', range: 'slider', search: 'searchbox', hidden: '' };
  const clean = s => (s || '').replace(/\s+/g, ' ').trim().slice(0, 200);

  // draggable="true" (an enumerated attribute: ASCII case ignored) makes a
  // target of an element, as fuse's signals read it from the attributes.
  const draggable = el => { const v = attr(el, 'draggable'); return v !== null && v.length === 4 && v.toLowerCase() === 'true'; };
  // roleOf approximates the role Chrome gives an element, for counting what
  // was not fetched: an explicit role, else the tag's; a draggable element
  // with neither is the role-less target fuse calls clickable.
  function roleOf(el) {
    const r = attr(el, 'role');
    if (r) return r.trim().split(/\s+/)[0].toLowerCase();
    const tag = tagOf(el);
    switch (tag) {
      case 'A': return hasAttr(el, 'href') ? 'link' : '';
      case 'BUTTON': case 'SUMMARY': return 'button';
      case 'INPUT': { const t = (attr(el, 'type') || 'text').toLowerCase(); return t in inputRoles ? inputRoles[t] : 'textbox'; }
      case 'TEXTAREA': return 'textbox';
      case 'SELECT': return own(selectGets.multiple, el) || own(selectGets.size, el) > 1 ? 'listbox' : 'combobox';
      case 'OPTION': return 'option';
      case 'TR': return 'row';
      case 'LI': return 'listitem';
      case 'UL': case 'OL': return 'list';
      case 'H1': case 'H2': case 'H3': case 'H4': case 'H5': case 'H6': return 'heading';
      case 'IMG': return attr(el, 'alt') === '' ? '' : 'image';
      case 'P': return 'paragraph';
      case 'FORM': return hasAttr(el, 'aria-label') || hasAttr(el, 'aria-labelledby') ? 'form' : '';
      case 'SECTION': return hasAttr(el, 'aria-label') || hasAttr(el, 'aria-labelledby') ? 'region' : '';
      case 'HEADER': return closestOf(el, 'article,aside,main,nav,section') ? '' : 'banner';
      case 'FOOTER': return closestOf(el, 'article,aside,main,nav,section') ? '' : 'contentinfo';
    }
    return landmarkTags[tag] || (draggable(el) ? 'clickable' : '');
  }

  function walkDoc(doc, win, owner, parentDoc, inc) {
    const m = margin;
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
    const shows = () => new Redo('a subtree outside the viewport shows in it');
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
  const outsideAs = (el, dir, W, H) => { const b = rectOf(el); return !inView(b, W, H) && dirOf(b, W, H) === dir; };

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

  // unionOf is a range's bounding box from its client rects, as
  // Range.getBoundingClientRect makes it (CSSOM View) without a second
  // trip to layout: the smallest box holding every rect with a width or a
  // height, else the first rect.
  function unionOf(rs) {
    let l = Infinity, t = Infinity, r = -Infinity, b = -Infinity;
    for (const x of rs) {
      if (!x.width && !x.height) continue;
      l = Math.min(l, x.left); t = Math.min(t, x.top); r = Math.max(r, x.right); b = Math.max(b, x.bottom);
    }
    if (l === Infinity) return rs[0];
    return { left: l, top: t, right: r, bottom: b, width: r - l, height: b - t, x: l, y: t };
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

  // A box with no area has no place to lie in (fuse gives it no direction):
  // it stays, wherever it is.
  const inView = (r, W, H) => r && (r.width === 0 && r.height === 0 || !(r.top >= H + margin || r.bottom <= -margin || r.left >= W + margin || r.right <= -margin));
  // likelyTarget is fuse's DOM-only sign of a target, counted below kept
  // nodes for what was left out (a listener on a container of many targets
  // delegates).
  const likelyTarget = el => {
    switch (tagOf(el)) {
      case 'BUTTON': case 'INPUT': case 'SELECT': case 'TEXTAREA': return true;
      case 'A': return hasAttr(el, 'href');
    }
    const t = attr(el, 'tabindex');
    return t !== null && !t.trim().startsWith('-');
  };
  const nativeClick = el => {
    switch (tagOf(el)) {
      case 'A': case 'AREA': return hasAttr(el, 'href');
      case 'BUTTON': return !own(buttonDisabledGet, el);
      case 'SELECT': return !own(selectGets.disabled, el);
      case 'TEXTAREA': return !own(textareaGets.disabled, el);
      case 'LABEL': case 'SUMMARY': return true; // no disabled of their own
      case 'INPUT': return own(inputGets.type, el) !== 'hidden' && !own(inputGets.disabled, el);
      case 'OBJECT': case 'EMBED': return true;
      case 'VIDEO': case 'AUDIO': return hasAttr(el, 'controls');
    }
    return editable(el);
  };
  // styleReads names, for each style property, the declaration's own
  // attribute that reads it (cs.backgroundColor for background-color):
  // 4,000 reads cost ~1.9 ms that way and ~2.4 ms through
  // getPropertyValue, which parses the name each time. null: no such
  // attribute, getPropertyValue reads it.
  let styleAttrs = null;
  const styleReads = cs => styleAttrs || (styleAttrs = styleProps.map(p => {
    const k = p === 'float' ? 'cssFloat' : p.replace(/^-webkit-/, 'webkit-').replace(/-([a-z])/g, (_, c) => c.toUpperCase());
    return k in cs ? k : null;
  }));
  // within: b lies inside a (a pixel of slack for rounding).
  const within = (b, a) => b.left >= a.left - 1 && b.top >= a.top - 1 && b.right <= a.right + 1 && b.bottom <= a.bottom + 1;
  const dirOf = (r, W, H) => r.top >= H + margin ? 'below' : r.bottom <= -margin ? 'above' : r.left >= W + margin ? 'right' : 'left';

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

    phase('count');
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
    return d;
  }

  // The world's memo of the last pass in this document (see the top).
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
  const sheetsOf = () => {
    const sheets = styleSheetsGet.call(document);
    let sig = sheets.length + '/' + ((adoptedDesc ? adoptedDesc.get.call(document) : null) || []).length;
    for (const sh of sheets) {
      try { sig += ',' + sh.cssRules.length + (sh.disabled ? 'd' : '') + sh.media.mediaText; } catch (e) { sig += ',?'; }
    }
    return sig;
  };
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

  // One memo per caller (token), two at most: each process acting on the
  // tab has its own numbers.
  // (An element named __axfuseViews is a property of the window, not its own.)
  let views = Object.hasOwn(globalThis, '__axfuseViews') ? globalThis.__axfuseViews : null;
  if (!views || views.doc !== document) { views = globalThis.__axfuseViews = new Map(); views.doc = document; }
  let view = views.get(token);
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
  const nextGen = ++view.seq;
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
