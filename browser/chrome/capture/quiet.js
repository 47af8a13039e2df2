// The page side of reusing a capture (quiet.go). It runs in axfuse's
// isolated world, so the page cannot reach its watcher, and keeps, per
// document and per caller (a token; two at most), a watch armed as a
// capture began: a MutationObserver on the document (and on its open shadow
// roots when asked to walk for them) and capturing listeners for what
// changes a page with no DOM change: pointer, focus, input, load, scroll,
// resize, toggle and hash events, and fonts loading. It also keeps a
// signature of what a script can change with no event at all: the scroll
// and the viewport, the focused element, the URL, every form control's
// value and state, and the style sheets' rule counts.
//
// quietWatch({token, gen, walk}) is {quiet, why, cause, gen}: quiet says
// nothing changed since the watch numbered gen was armed (why says what
// did, and cause is 'custom' when that is a defined custom element); in
// any case the watch is armed anew, numbered gen. walk (the last capture
// held shadow roots or custom elements) makes the watch observe every
// open shadow root, and refuse while a custom element is defined: its
// ElementInternals can change its role, name and states with no trace
// anywhere. Style edits, layouts and listeners that leave no trace here
// are Go's to check (Performance.getMetrics).
function quietWatch({ token, gen, walk }) {
  const key = '__axfuseQuiet';
  const get = (proto, name) => Object.getOwnPropertyDescriptor(proto, name).get;
  // The DOM's own accessors: a page's named elements shadow document's
  // properties (<img name="activeElement">), never these.
  const activeGet = get(Document.prototype, 'activeElement'), sheetsGet = get(Document.prototype, 'styleSheets'),
    urlGet = get(Document.prototype, 'URL'), shadowGet = get(Element.prototype, 'shadowRoot'),
    localNameGet = get(Element.prototype, 'localName'), matches = Element.prototype.matches;
  const all = Document.prototype.querySelectorAll,
    fragAll = DocumentFragment.prototype.querySelectorAll;
  const getAnimations = Document.prototype.getAnimations;
  const input = HTMLInputElement.prototype, area = HTMLTextAreaElement.prototype, select = HTMLSelectElement.prototype;
  const inputGets = ['value', 'checked', 'indeterminate', 'disabled', 'type'].map(p => get(input, p));
  const areaGets = ['value', 'disabled'].map(p => get(area, p));
  const selectGets = ['value', 'selectedIndex', 'disabled', 'length'].map(p => get(select, p));
  const optionIndex = get(HTMLOptionElement.prototype, 'index');
  const optionsGet = get(select, 'selectedOptions');
  const observe = { subtree: true, childList: true, attributes: true, characterData: true };

  // The watch keeps the form controls it found (one walk when it is made,
  // one per shadow root it walks) and those its observer sees added, so
  // that a check costs what changed, not the page's size.
  const tagOf = get(Element.prototype, 'tagName'), connectedGet = get(Node.prototype, 'isConnected'), typeGet = get(Node.prototype, 'nodeType');
  const elAll = Element.prototype.querySelectorAll, elMatches = Element.prototype.matches;
  const controlSel = 'input, textarea, select';
  const addControls = (set, root) => { for (const el of (root === document ? all : fragAll).call(root, controlSel)) set.add(el); };
  const noteAdded = (set, records) => {
    for (const r of records) {
      for (const a of r.addedNodes) {
        if (typeGet.call(a) !== 1) continue;
        if (elMatches.call(a, controlSel)) set.add(a);
        for (const el of elAll.call(a, controlSel)) set.add(el);
      }
    }
  };
  const signature = set => {
    let s = [scrollX, scrollY, innerWidth, innerHeight, devicePixelRatio, urlGet.call(document)].join(' ');
    for (const el of set) {
      if (!connectedGet.call(el)) { set.delete(el); continue; }
      switch (tagOf.call(el)) {
        case 'INPUT': s += '|' + inputGets.map(g => g.call(el)).join(','); break;
        case 'TEXTAREA': s += '|' + areaGets.map(g => g.call(el)).join(','); break;
        case 'SELECT':
          s += '|' + selectGets.map(g => g.call(el)).join(',');
          for (const o of optionsGet.call(el)) s += ',' + optionIndex.call(o);
          break;
      }
    }
    const sheets = sheetsGet.call(document);
    s += '|' + sheets.length;
    for (const sh of sheets) {
      try { s += ',' + sh.cssRules.length + (sh.disabled ? 'd' : '') + sh.media.mediaText; } catch (e) { s += ',?'; }
    }
    return s;
  };
  // The document's open shadow roots, nested ones included.
  let custom = false;
  const shadowRoots = () => {
    const roots = [], todo = [document];
    while (todo.length) {
      const root = todo.pop();
      for (const el of (root === document ? all.call(document, '*') : fragAll.call(root, '*'))) {
        const sr = shadowGet.call(el);
        if (sr) { roots.push(sr); todo.push(sr); }
        if (!custom && localNameGet.call(el).includes('-') && matches.call(el, ':defined')) custom = true;
      }
    }
    return roots;
  };

  let ws = Object.hasOwn(globalThis, key) ? globalThis[key] : null;
  if (!ws || ws.doc !== document) { ws = globalThis[key] = new Map(); ws.doc = document; }
  let w = ws.get(token);
  if (!w) {
    for (const [k, v] of ws) if (ws.size >= 2) { v.stop(); ws.delete(k); }
    const ac = new AbortController();
    w = { gen: 0, seq: 0, why: 'no watch yet', sig: '', active: null, walked: false, controls: new Set(), rootsSeen: new WeakSet() };
    const note = why => { if (!w.why) w.why = why; };
    w.mo = new MutationObserver(rs => { note('the DOM changed'); noteAdded(w.controls, rs); });
    w.mo.observe(document, observe);
    addControls(w.controls, document);
    const on = EventTarget.prototype.addEventListener;
    const opts = { capture: true, passive: true, signal: ac.signal };
    // On the window, not the document: DOMDebugger.getEventListeners with
    // pierce reports every world's listeners, and a click listener of
    // ours on the document would read as the page's. Element load and
    // error events do not reach the window (load never; error is also the
    // window's own for a script error), and make no target.
    for (const type of ['load', 'error']) on.call(document, type, () => note('an event: ' + type), opts);
    for (const type of ['mouseover', 'mouseout', 'pointerover', 'pointerout', 'pointerdown', 'pointerup', 'mousedown', 'mouseup',
      'click', 'focusin', 'focusout', 'input', 'change', 'keydown', 'keyup', 'scroll', 'toggle', 'beforetoggle',
      'submit', 'reset', 'drop', 'animationstart', 'transitionrun', 'fullscreenchange', 'visibilitychange',
      'resize', 'hashchange', 'popstate', 'focus', 'blur', 'pageshow']) {
      on.call(window, type, () => note('an event: ' + type), opts);
    }
    const fontsDesc = Object.getOwnPropertyDescriptor(Document.prototype, 'fonts');
    const fonts = fontsDesc ? fontsDesc.get.call(document) : null;
    if (fonts) on.call(fonts, 'loadingdone', () => note('fonts loaded'), { signal: ac.signal });
    w.stop = () => { w.mo.disconnect(); ac.abort(); };
    ws.set(token, w);
  }

  // Shadow roots are walked at each capture that asks (the page has some):
  // settle.js counts those attached since, and Go refuses a reuse when that
  // count moved.
  const roots = walk ? [document, ...shadowRoots()] : [document];
  let why = gen <= 0 || w.gen !== gen ? 'no watch of that capture' : '';
  const records = w.mo.takeRecords();
  noteAdded(w.controls, records);
  if (!why && records.length) why = 'the DOM changed';
  if (!why && w.why) why = w.why;
  if (!why && walk && !w.walked) why = 'the watch did not walk the shadow roots';
  let cause = '';
  if (!why && custom) { why = 'a custom element is defined (its internals change unseen)'; cause = 'custom'; }
  for (const sr of roots) {
    if (sr === document || w.rootsSeen.has(sr)) continue;
    w.rootsSeen.add(sr);
    addControls(w.controls, sr);
  }
  // One signature serves the check and the new watch: nothing runs between.
  const sig = signature(w.controls);
  if (!why && activeGet.call(document) !== w.active) why = 'the focus moved';
  if (!why && sig !== w.sig) why = 'the scroll, the viewport, the URL, a form control or a style sheet changed';
  if (!why && getAnimations) {
    for (const a of getAnimations.call(document)) {
      if (a.playState === 'running' || a.pending) { why = 'an animation runs'; break; }
    }
  }
  for (const sr of roots) if (sr !== document) w.mo.observe(sr, observe);
  w.walked = walk;
  noteAdded(w.controls, w.mo.takeRecords());
  w.why = '';
  w.active = activeGet.call(document);
  w.sig = sig;
  w.gen = ++w.seq;
  return { quiet: why === '', why, cause, gen: w.gen };
}
