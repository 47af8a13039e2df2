// The guard's first listeners, run in axfuse's isolated world of every
// frame at document start (Page.addScriptToEvaluateOnNewDocument), before
// any script of the page. Listeners on one target run in the order they
// were added, whatever world added them: these, added first, run before
// every capture listener the page will ever add to its window, so a page
// cannot see, hide or redirect an event of an action before the guard
// judged it (guard.js hooks its window listeners in here).
//
// With no guard armed in this frame they also drop two kinds of trusted
// event no gesture of this document's own can send: a release (pointerup,
// mouseup, click, dblclick, auxclick) whose press this document never saw,
// and a key's keyup or keypress whose keydown it never saw. Those
// are an action aimed elsewhere finishing in a frame that slid in or took
// the focus half-way through it; a person's own gestures start where they
// end.
(() => {
  if (globalThis.__axfuseFirst) return;
  const win = window;
  const hooks = new Map(); // event type → Set of guard handlers
  const down = { pointer: false, keys: new Set() };
  const release = /^(pointerup|mouseup|click|dblclick|auxclick)$/;
  // stray tracks the presses and keys this document saw and says whether
  // ev is a release or key tail without them.
  const stray = (ev) => {
    switch (ev.type) {
      case 'pointerdown': case 'mousedown': down.pointer = true; return false;
      case 'keydown': down.keys.add(ev.code); return false;
      case 'keyup': return !down.keys.delete(ev.code) && !!ev.code;
      case 'keypress': return !down.keys.has(ev.code) && !!ev.code;
      case 'pointerout': case 'mouseout':
        // The pointer left the document with no button held: the next
        // release here needs a press here.
        if (!ev.relatedTarget && ev.buttons === 0) down.pointer = false;
        return false;
    }
    return release.test(ev.type) && !down.pointer;
  };
  const run = (ev) => {
    if (!ev.isTrusted) return;
    const strayed = stray(ev);
    const set = hooks.get(ev.type);
    if (set && set.size) {
      for (const h of [...set]) h(ev);
    } else if (strayed) {
      ev.preventDefault();
      ev.stopImmediatePropagation();
    }
  };
  const types = ['pointerover', 'mouseover', 'pointermove', 'mousemove', 'pointerdown', 'mousedown', 'pointerup', 'mouseup',
    'click', 'dblclick', 'auxclick', 'contextmenu', 'keydown', 'keypress', 'beforeinput', 'keyup', 'input', 'focusout',
    'dragstart', 'dragenter', 'dragover', 'drop', 'pointerout', 'mouseout'];
  for (const type of types) win.addEventListener(type, run, true);
  Object.defineProperty(globalThis, '__axfuseFirst', {
    value: Object.freeze({
      win,
      // add hooks h, a capture listener of the window, in for type; false
      // when the type is not one this script listens for.
      add(type, h) {
        if (!types.includes(type)) return false;
        if (!hooks.has(type)) hooks.set(type, new Set());
        hooks.get(type).add(h);
        return true;
      },
      remove(type, h) { const s = hooks.get(type); if (s) s.delete(h); },
    }),
  });
})();
