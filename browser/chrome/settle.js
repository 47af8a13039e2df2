// The page side of settling after an action (settle.go). It runs in the
// page's main world, because that is where the page's timers are set: a
// timer set by the action's own event handlers (or by a timer they set)
// is something the action caused, and the answer waits for it. It also
// keeps, per node, when the DOM there last changed, so that a node that
// changes on its own (a ticking clock, a carousel) does not hold the
// answer. The page can see and tamper with all of this; the worst it can
// do is make the wait end early or run to its bound.
//
// (key, op) => state: op "arm" starts an action, "state" reads, "idle"
// ends it, "install" only installs. The tracker is installed once per document under window[key].
(key, op) => {
  const LIMIT = 2000;   // a timer longer than this is not waited for
  const DEPTH = 4;      // timers set by timers set by … the action
  const CONTINUOUS = 12; // mutations of one node in one action: background
  let s = window[key];
  if (!s) {
    const origSet = window.setTimeout, origClear = window.clearTimeout;
    s = { armAt: -1, seq: 0, inAction: 0, depth: 0, running: null, clearing: false,
      timers: new Map(), caused: 0, lastCaused: -1, background: 0, nodes: new WeakMap() };
    Object.defineProperty(window, key, { value: s, enumerable: false, configurable: true });
    const now = () => performance.now();
    const mo = new MutationObserver((records) => {
      const t = now();
      for (const r of records) {
        let n = r.target;
        if (n.nodeType !== 1 && n.parentNode) n = n.parentNode;
        let m = s.nodes.get(n);
        if (!m) { m = { idle: 0, idleLast: -1e12, seq: -1, n: 0, bg: false }; s.nodes.set(n, m); }
        if (s.armAt < 0) { m.idle++; m.idleLast = t; continue; }
        if (m.seq !== s.seq) {
          // Its first change in this action: background when it changed
          // twice or more on its own (between actions, or as background
          // in one), lately.
          m.seq = s.seq; m.n = 0;
          m.bg = m.idle >= 2 && m.idleLast >= s.armAt - 2000;
        }
        m.n++;
        if (m.bg || m.n > CONTINUOUS) { m.bg = true; m.idle++; m.idleLast = t; s.background++; continue; }
        s.caused++; s.lastCaused = t;
      }
    });
    mo.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    const setTimeout = function setTimeout(cb, delay, ...args) {
      const d = +delay || 0;
      if (!(s.inAction && s.armAt >= 0 && typeof cb === 'function' && d <= LIMIT && s.depth < DEPTH && cb !== s.running)) {
        return origSet.call(window, cb, delay, ...args);
      }
      const depth = s.depth + 1;
      let id;
      const run = function (...a) {
        s.timers.delete(id);
        const was = [s.inAction, s.depth, s.running];
        s.inAction = 1; s.depth = depth; s.running = cb;
        try { return cb.apply(this, a); } finally { [s.inAction, s.depth, s.running] = was; }
      };
      id = origSet.call(window, run, d, ...args);
      s.timers.set(id, now() + d);
      return id;
    };
    const clearTimeout = function clearTimeout(id) { s.timers.delete(id); return origClear.call(window, id); };
    window.setTimeout = setTimeout;
    window.clearTimeout = clearTimeout;
    // A trusted input event opens the action's context until the task
    // that dispatches it ends (a zero timer set first runs first).
    const open = (e) => {
      if (!e.isTrusted || s.armAt < 0) return;
      s.inAction = 1; s.depth = 0;
      if (!s.clearing) { s.clearing = true; origSet.call(window, () => { s.inAction = 0; s.clearing = false; }, 0); }
    };
    for (const type of ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click', 'dblclick', 'auxclick', 'contextmenu',
      'keydown', 'keypress', 'keyup', 'beforeinput', 'input', 'change', 'submit', 'wheel', 'pointerover', 'mouseover',
      'pointermove', 'mousemove', 'dragstart', 'drop', 'dragend', 'focusin', 'focusout']) {
      window.addEventListener(type, open, { capture: true, passive: true });
    }
  }
  const t = performance.now();
  if (op === 'arm') {
    s.armAt = t; s.seq++; s.timers.clear(); s.caused = 0; s.lastCaused = -1; s.background = 0;
  } else if (op === 'idle') {
    s.armAt = -1; s.timers.clear();
  }
  let timers = 0, due = 0;
  for (const [id, at] of s.timers) {
    // A timer well past its time was cleared some other way
    // (clearInterval) or the page is busy; either way it is not waited for.
    if (at < t - 250) { s.timers.delete(id); continue; }
    timers++; due = Math.max(due, at - t);
  }
  let animations = 0, animationLeft = 0;
  if (s.armAt >= 0 && document.getAnimations) {
    for (const a of document.getAnimations()) {
      if (a.playState !== 'running' || (a.startTime != null && a.startTime < s.armAt)) continue;
      const ct = a.effect && a.effect.getComputedTiming();
      if (!ct || !isFinite(ct.endTime) || ct.localTime == null) continue;
      const left = (ct.endTime - ct.localTime) / Math.abs(a.playbackRate || 1);
      if (left > 0) { animations++; animationLeft = Math.max(animationLeft, left); }
    }
  }
  return { caused: s.caused, quietFor: s.lastCaused < 0 ? -1 : t - s.lastCaused, background: s.background,
    timers, timerDue: due, animations, animationLeft, ready: document.readyState };
}
