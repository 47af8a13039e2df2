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
// ends it, "install" only installs, "paint" says whether the pixels are
// as they were at a generation (gen, "" when that cannot be known). The tracker is installed once per document under window[key].
(key, op) => {
  // coloursOnly: an animation of colours alone moves nothing and shows or
  // hides nothing (a completed todo greys out over 0.4 s): the answer does
  // not wait for it.
  const COLOURS = /^(color|backgroundColor|border(Top|Right|Bottom|Left)?Color|outlineColor|textDecorationColor|caretColor|columnRuleColor|accentColor|textEmphasisColor|fill|stroke|stopColor|floodColor|lightingColor)$/;
  const coloursOnly = (a) => {
    try {
      let any = false;
      for (const k of a.effect.getKeyframes()) {
        for (const p in k) {
          if (p === 'offset' || p === 'computedOffset' || p === 'easing' || p === 'composite') continue;
          if (!COLOURS.test(p)) return false;
          any = true;
        }
      }
      return any;
    } catch (e) { return false; }
  };
  const LIMIT = 2000;   // a timer longer than this is not waited for
  const DEPTH = 4;      // timers set by timers set by … the action
  const CONTINUOUS = 12; // mutations of one node in one action: background
  let s = window[key];
  if (!s) {
    const origSet = window.setTimeout, origClear = window.clearTimeout;
    s = { armAt: -1, seq: 0, inAction: 0, depth: 0, running: null, clearing: false,
      timers: new Map(), caused: 0, lastCaused: -1, background: 0, nodes: new WeakMap(), sent: 0, navigating: false,
      // gen counts what can change the pixels: DOM changes, canvas draws,
      // scrolls, resizes, input, hovers, loads. opaque: something paints
      // that gen cannot follow (a worker's canvas, WebGPU).
      gen: 0, opaque: false, id: Math.random().toString(36).slice(2),
      // wide counts what the viewport pass's memo cannot follow: shadow
      // roots attached (one may sit in a subtree it did not walk again) and
      // constructed style sheets edited.
      wide: 0 };
    Object.defineProperty(window, key, { value: s, enumerable: false, configurable: true });
    const now = () => performance.now();
    // seen takes in DOM changes; claimed ones were made by a callback the
    // action caused (a timer or frame of its chain), however often that
    // node changes: a script-driven animation (jQuery's slideDown, a
    // frame loop easing a height in) is the action's until it stops.
    const seen = (records, claimed) => {
      if (!records.length) return;
      const t = now();
      s.gen++;
      if (claimed && s.armAt >= 0) { s.caused += records.length; s.lastCaused = t; return; }
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
    };
    const mo = new MutationObserver((records) => seen(records, false));
    s.claim = () => seen(mo.takeRecords(), true);
    const watch = { subtree: true, childList: true, attributes: true, characterData: true };
    mo.observe(document, watch);
    // Changes inside shadow roots reach no observer of the document.
    for (const el of document.querySelectorAll('*')) if (el.shadowRoot) mo.observe(el.shadowRoot, watch);
    const attach = Element.prototype.attachShadow;
    if (attach) {
      Element.prototype.attachShadow = function attachShadow(...a) {
        const root = attach.apply(this, a);
        try { mo.observe(root, watch); s.gen++; s.wide++; } catch (e) { /* the root is the page's all the same */ }
        return root;
      };
    }
    const bump = () => { s.gen++; };
    const wrap = (proto, names) => {
      if (!proto) return;
      for (const n of names) {
        const f = proto[n];
        if (typeof f !== 'function') continue;
        proto[n] = { [n](...a) { s.gen++; return f.apply(this, a); } }[n];
      }
    };
    wrap(window.CanvasRenderingContext2D && CanvasRenderingContext2D.prototype, ['fill', 'stroke', 'fillRect', 'strokeRect', 'clearRect',
      'fillText', 'strokeText', 'drawImage', 'putImageData', 'reset', 'drawFocusIfNeeded']);
    for (const gl of [window.WebGLRenderingContext, window.WebGL2RenderingContext]) {
      wrap(gl && gl.prototype, ['clear', 'drawArrays', 'drawElements', 'drawArraysInstanced', 'drawElementsInstanced', 'drawRangeElements', 'blitFramebuffer']);
    }
    wrap(window.ImageBitmapRenderingContext && ImageBitmapRenderingContext.prototype, ['transferFromImageBitmap']);
    // Script sets a field's value or state with no DOM change and no event.
    const setter = (proto, prop) => {
      const d = proto && Object.getOwnPropertyDescriptor(proto, prop);
      if (!d || !d.set) return;
      Object.defineProperty(proto, prop, { ...d, set(v) { s.gen++; d.set.call(this, v); } });
    };
    for (const [c, props] of [[window.HTMLInputElement, ['value', 'checked', 'indeterminate', 'valueAsNumber', 'valueAsDate']],
      [window.HTMLTextAreaElement, ['value']], [window.HTMLSelectElement, ['value', 'selectedIndex']],
      [window.HTMLOptionElement, ['selected']], [window.HTMLMediaElement, ['currentTime']]]) {
      for (const prop of props) setter(c && c.prototype, prop);
    }
    wrap(Element.prototype, ['animate', 'scrollTo', 'scrollBy', 'scrollIntoView']);
    // Style sheets change the pixels with no DOM change (CSS-in-JS).
    const csp = window.CSSStyleSheet && CSSStyleSheet.prototype;
    for (const n of ['insertRule', 'deleteRule', 'addRule', 'removeRule', 'replace', 'replaceSync']) {
      const f = csp && csp[n];
      if (typeof f === 'function') csp[n] = { [n](...a) { s.gen++; s.wide++; return f.apply(this, a); } }[n];
    }
    for (const c of [window.Document, window.ShadowRoot]) {
      const adopted = c && Object.getOwnPropertyDescriptor(c.prototype, 'adoptedStyleSheets');
      if (adopted && adopted.set) {
        Object.defineProperty(c.prototype, 'adoptedStyleSheets', { ...adopted, set(v) { s.gen++; s.wide++; adopted.set.call(this, v); } });
      }
    }
    const cp = window.HTMLCanvasElement && HTMLCanvasElement.prototype;
    if (cp) {
      const getContext = cp.getContext, transfer = cp.transferControlToOffscreen;
      cp.getContext = function getContext2(type, ...a) {
        if (type === 'webgpu') s.opaque = true;
        s.gen++;
        return getContext.call(this, type, ...a);
      };
      Object.defineProperty(cp.getContext, 'name', { value: 'getContext' });
      if (transfer) cp.transferControlToOffscreen = function transferControlToOffscreen() { s.opaque = true; return transfer.call(this); };
    }
    for (const type of ['scroll', 'resize', 'input', 'change', 'load', 'error', 'toggle', 'focusin', 'focusout',
      'pointermove', 'mousemove', 'pointerover', 'pointerout', 'animationstart', 'transitionstart', 'play', 'seeked', 'selectionchange']) {
      window.addEventListener(type, bump, { capture: true, passive: true });
    }
    if (document.fonts) document.fonts.addEventListener('loadingdone', bump);
    // plain runs a callback that is not the action's outside its context:
    // a background loop's frame or timer that happens to run between an
    // input and the end of its task is not the action's doing.
    const plain = (cb) => typeof cb !== 'function' ? cb : function (...a) {
      const was = s.inAction;
      s.inAction = 0;
      try { return cb.apply(this, a); } finally { s.inAction = was; }
    };
    const setTimeout = function setTimeout(cb, delay, ...args) {
      const d = +delay || 0;
      if (!(s.inAction && s.armAt >= 0 && typeof cb === 'function' && d <= LIMIT && s.depth < DEPTH && cb !== s.running)) {
        return origSet.call(window, plain(cb), delay, ...args);
      }
      const depth = s.depth + 1;
      let id;
      const run = function (...a) {
        s.timers.delete(id);
        const was = [s.inAction, s.depth, s.running];
        s.inAction = 1; s.depth = depth; s.running = cb;
        try { return cb.apply(this, a); } finally { s.claim(); [s.inAction, s.depth, s.running] = was; }
      };
      id = origSet.call(window, run, d, ...args);
      s.timers.set(id, now() + d);
      return id;
    };
    const clearTimeout = function clearTimeout(id) { s.timers.delete(id); return origClear.call(window, id); };
    window.setTimeout = setTimeout;
    window.clearTimeout = clearTimeout;
    // Frames and intervals the action asks for run in its context, and
    // what they change is its doing, for LIMIT after the input at most
    // (a loop it starts for good does not hold every later answer): a
    // frame loop of any depth, unlike a timer chain.
    const chained = (cb) => s.inAction && s.armAt >= 0 && typeof cb === 'function' && now() - s.armAt < LIMIT;
    const inChain = (cb, self, a, arm) => {
      if (s.armAt !== arm || now() - arm >= LIMIT) return cb.apply(self, a);
      const was = [s.inAction, s.depth, s.running];
      s.inAction = 1;
      try { return cb.apply(self, a); } finally { s.claim(); [s.inAction, s.depth, s.running] = was; }
    };
    // Until it first runs, each is a timer the action set (a busy page
    // may not run it before the wait's first look).
    const origFrame = window.requestAnimationFrame, origInterval = window.setInterval, origClearInterval = window.clearInterval;
    if (typeof origFrame === 'function') {
      window.requestAnimationFrame = function requestAnimationFrame(cb) {
        if (!chained(cb)) return origFrame.call(window, plain(cb));
        const arm = s.armAt;
        let key;
        const id = origFrame.call(window, function (...a) { s.timers.delete(key); return inChain(cb, this, a, arm); });
        key = 'frame ' + id;
        s.timers.set(key, now() + 16);
        return id;
      };
    }
    if (typeof origInterval === 'function') {
      window.setInterval = function setInterval(cb, delay, ...args) {
        if (!chained(cb)) return origInterval.call(window, plain(cb), delay, ...args);
        const arm = s.armAt, d = +delay || 0;
        let key;
        const id = origInterval.call(window, function (...a) { s.timers.delete(key); return inChain(cb, this, a, arm); }, delay, ...args);
        key = 'interval ' + id;
        if (d <= LIMIT) s.timers.set(key, now() + d);
        return id;
      };
      window.clearInterval = function clearInterval(id) { s.timers.delete('interval ' + id); return origClearInterval.call(window, id); };
    }
    // Requests the action's handlers send are known here at once; the
    // network's own events can come tens of milliseconds later on a busy
    // machine, after the wait would have looked and found nothing.
    const origFetch = window.fetch;
    if (origFetch) {
      window.fetch = function fetch(...a) {
        const p = origFetch.apply(this, a);
        if (s.inAction && s.armAt >= 0) s.sent++;
        return p;
      };
    }
    const xhr = window.XMLHttpRequest && XMLHttpRequest.prototype;
    const origSend = xhr && xhr.send;
    if (origSend) {
      xhr.send = function send(...a) {
        if (s.inAction && s.armAt >= 0) s.sent++;
        return origSend.apply(this, a);
      };
    }
    // A navigation the action starts is known here at once too.
    if (window.navigation) {
      navigation.addEventListener('navigate', (e) => {
        if (s.armAt >= 0 && !(e.destination && e.destination.sameDocument)) s.navigating = true;
      });
    }
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
    // Target listeners (click and drag kinds) added or removed since a
    // capture: the next incremental capture asks those nodes again. The
    // last 256 to 512 are kept; listened(since) returns [seq, lost, nodes,
    // wide]. A listener that can go with no call (once, or an AbortSignal)
    // makes its node volatile: asked again at every capture.
    const TARGET = { click: 1, mousedown: 1, mouseup: 1, pointerdown: 1, pointerup: 1, dragstart: 1, dragenter: 1, dragover: 1, drop: 1 };
    s.listen = { seq: 0, items: [], volatile: [], lostVolatile: false };
    const heard = (node, type, opts) => {
      if (!TARGET[type] || !node || !node.nodeType) return;
      const l = s.listen;
      l.items.push([++l.seq, node]);
      if (l.items.length > 512) l.items = l.items.slice(-256);
      if (opts && typeof opts === 'object' && (opts.once || opts.signal)) {
        if (l.volatile.length < 256) { if (!l.volatile.includes(node)) l.volatile.push(node); } else l.lostVolatile = true;
      }
    };
    const et = window.EventTarget && EventTarget.prototype;
    for (const name of ['addEventListener', 'removeEventListener']) {
      const f = et && et[name];
      if (typeof f !== 'function') continue;
      et[name] = { [name](type, ...a) { heard(this, type, name === 'addEventListener' ? a[1] : null); return f.call(this, type, ...a); } }[name];
    }
    for (const c of [window.HTMLElement, window.SVGElement, window.Document]) {
      for (const type in TARGET) {
        const d = c && Object.getOwnPropertyDescriptor(c.prototype, 'on' + type);
        if (!d || !d.set) continue;
        Object.defineProperty(c.prototype, 'on' + type, { ...d, set(v) { heard(this, type); d.set.call(this, v); } });
      }
    }
    s.listened = (since) => {
      const l = s.listen;
      const first = l.items.length ? l.items[0][0] : l.seq + 1;
      const nodes = l.items.filter((x) => x[0] > since).map((x) => x[1]);
      l.volatile = l.volatile.filter((n) => n.isConnected);
      for (const n of l.volatile) nodes.push(n);
      return [l.seq, since < first - 1 || l.lostVolatile, nodes, s.wide];
    };
    // run answers one op; later calls reach it without sending this script.
    s.run = (op) => {
      const t = performance.now();
      if (op === 'arm') {
        s.armAt = t; s.seq++; s.timers.clear(); s.caused = 0; s.lastCaused = -1; s.background = 0; s.sent = 0; s.navigating = false;
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
          if (a.playState !== 'running' || (a.startTime != null && a.startTime < s.armAt) || coloursOnly(a)) continue;
          const ct = a.effect && a.effect.getComputedTiming();
          if (!ct || !isFinite(ct.endTime) || ct.localTime == null) continue;
          const left = (ct.endTime - ct.localTime) / Math.abs(a.playbackRate || 1);
          if (left > 0) { animations++; animationLeft = Math.max(animationLeft, left); }
        }
      }
      if (op === 'paint') {
        // The pixels are known to be as they were at gen only when nothing
        // paints on its own: no running animation, playing video, SMIL, frame.
        let still = !s.opaque && !document.querySelector('iframe, frame, object, embed, animate, animateTransform, animateMotion, set');
        if (still) for (const v of document.querySelectorAll('video')) if (!v.paused && !v.ended) still = false;
        // Animations that ended hold their last frame (fill: forwards): which
        // ones there are, and where they stopped, is part of the picture.
        let held = '';
        if (still && document.getAnimations) {
          const all = document.getAnimations();
          still = all.length <= 64 && !all.some((a) => a.playState === 'running' || a.pending);
          for (const a of all) held += ':' + a.playState + '@' + a.currentTime;
        }
        return { gen: still ? s.id + ':' + s.gen + held : '' };
      }
      return { caused: s.caused, quietFor: s.lastCaused < 0 ? -1 : t - s.lastCaused, background: s.background,
        sent: s.sent, navigating: s.navigating, wide: s.wide, listenSeq: s.listen.seq,
        timers, timerDue: due, animations, animationLeft };
    };
  }
  return s.run(op);
}
