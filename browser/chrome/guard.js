// The input-time guard, called on an element in axfuse's isolated world
// (Runtime.callFunctionOn, `this` the element). It checks that the element
// can take the action now, then arms capture-phase listeners on the
// element's window (and on each shadow root around it) that stop any event
// of the action whose real target is not the element, before a page
// handler runs. finish(token) reads the verdict and disarms.
//
// The page shares the DOM but not this world's globals, so it cannot
// patch what the guard calls. Every string it reports about the page is
// cut short and reduced to name characters: page text is untrusted.
async function (o) {
  const el = this;
  const g = globalThis.__axfuseGuards || (globalThis.__axfuseGuards = new Map());
  const short = (s, n) => String(s ?? '').replace(/\s+/g, ' ').trim().slice(0, n);
  const ident = (s) => String(s ?? '').replace(/[^A-Za-z0-9_-]/g, '').slice(0, 32);
  const describe = (n) => {
    if (!n || n.nodeType !== 1) return n && n.nodeType === 9 ? 'the document' : 'another node';
    let s = n.localName;
    if (n.id) s += '#' + ident(n.id);
    const cls = [...n.classList].slice(0, 2).map(ident).filter(Boolean);
    if (cls.length) s += '.' + cls.join('.');
    return s;
  };
  const role = (n) => n.getAttribute && n.getAttribute('role') || '';
  // fingerprint: what the agent's name and role of the element come from.
  const fingerprint = (n) => {
    if (!n.isConnected) return 'detached';
    const by = (n.getAttribute('aria-labelledby') || '').split(/\s+/).filter(Boolean)
      .map((id) => { const r = n.getRootNode(); const l = r.getElementById ? r.getElementById(id) : null; return l ? l.textContent : ''; }).join(' ');
    const v = n.localName === 'input' && /^(button|submit|reset)$/.test(n.type) ? n.value : '';
    return [n.localName, role(n), n.getAttribute('aria-label') || '', by, n.getAttribute('title') || '', n.getAttribute('alt') || '', v, short(n.textContent, 400)].join('\u0001');
  };
  const closestDeep = (n, sel) => {
    for (let e = n; e; e = e.parentElement || (e.getRootNode() instanceof ShadowRoot ? e.getRootNode().host : null)) {
      if (e.matches && e.matches(sel)) return e;
    }
    return null;
  };
  const disabled = (n) => {
    if (n.matches(':disabled')) return true;
    const a = closestDeep(n, '[aria-disabled]');
    return !!a && a.getAttribute('aria-disabled') === 'true';
  };
  const textTypes = /^(|text|search|email|password|tel|url|number)$/;
  const valueTypes = /^(date|time|datetime-local|month|week|color|range)$/;
  const editable = (n) => {
    if (n.localName === 'textarea') return true;
    if (n.localName === 'input') return textTypes.test(n.type) || valueTypes.test(n.type);
    return !!n.isContentEditable;
  };
  const checkable = (n) => (n.localName === 'input' && (n.type === 'checkbox' || n.type === 'radio')) ||
    /^(checkbox|radio|switch|menuitemcheckbox|menuitemradio)$/.test(role(n));
  const shown = (n) => {
    const r = n.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && n.checkVisibility({ visibilityProperty: true });
  };
  // An element with no box of its own (an inline link around an
  // absolutely positioned heading) shows through what it holds: a person
  // clicks that, and the click is still checked to land inside it.
  const visible = (n) => {
    if (!n.checkVisibility({ visibilityProperty: true })) return false;
    const r = n.getBoundingClientRect();
    if (r.width > 0 && r.height > 0) return true;
    const inner = n.querySelectorAll('*');
    for (let i = 0; i < inner.length && i < 64; i++) if (shown(inner[i])) return true;
    return false;
  };
  // stable: the box is the same over two animation frames, waited for up
  // to a second (an element sliding in settles). A hidden tab runs no
  // frames; timers stand in for them there.
  const frame = () => new Promise((done) => { requestAnimationFrame(() => done()); setTimeout(done, 50); });
  const same = (a, b) => Math.abs(a.x - b.x) < 0.5 && Math.abs(a.y - b.y) < 0.5 && Math.abs(a.width - b.width) < 0.5 && Math.abs(a.height - b.height) < 0.5;
  const stable = async (n) => {
    let last = n.getBoundingClientRect();
    for (const end = performance.now() + 1000; performance.now() < end;) {
      await frame(); await frame();
      const now = n.getBoundingClientRect();
      if (same(now, last)) return true;
      last = now;
    }
    return false;
  };
  const labels = (n) => n.labels ? [...n.labels] : [];
  // subject: the element the action is for. A label stands for its
  // control; a wrapper (a combobox's box) for its one field.
  const subject = (() => {
    const ctl = el.localName === 'label' ? el.control : null;
    if (o.verb === 'type') {
      if (editable(el)) return el;
      if (ctl && editable(ctl)) return ctl;
      const inner = [...el.querySelectorAll('input, textarea, [contenteditable]')].filter((n) => editable(n) && visible(n));
      return inner.length === 1 ? inner[0] : null;
    }
    if (o.verb === 'check') return checkable(el) ? el : ctl && checkable(ctl) ? ctl : null;
    return el;
  })();
  const what = () => el.localName === 'select' ? 'a <select>' : el.localName === 'input' ? 'an <input type=' + ident(el.type) + '>' : (/^[aeiou]/.test(el.localName) ? 'an <' : 'a <') + el.localName + '>';
  const problem = (() => {
    if (!el.isConnected) return 'detached';
    if (o.owner) return '';
    if (!subject) return o.verb === 'type' ? 'not-editable:' + what() : 'not-checkable:' + what();
    if (!visible(el) && !labels(el).some(visible) && !(subject !== el && visible(subject))) return 'hidden';
    if (o.enabled && (disabled(el) || disabled(subject))) return 'disabled';
    if (o.verb === 'type' && (subject.readOnly || (subject.isContentEditable === false && subject.localName !== 'input' && subject.localName !== 'textarea'))) return 'readonly';
    if (o.verb === 'check' && o.want === false && subject.localName === 'input' && subject.type === 'radio') return 'radio-uncheck';
    return '';
  })();
  if (problem) return { problem };
  // Where the observation laid the element out and where it is now are
  // two samples already: when they agree and no animation runs on the
  // element or around it, no frame is waited. (Script-driven motion seen
  // twice in one frame slips through; the guard still stops a click that
  // would miss.)
  const seen = o.seen && { x: o.seen[0], y: o.seen[1], width: o.seen[2], height: o.seen[3] };
  const animated = () => el.ownerDocument.getAnimations().some((a) => a.playState === 'running' && a.effect && a.effect.target && a.effect.target.contains && (a.effect.target === el || a.effect.target.contains(el)));
  if (o.stable && !(seen && same(seen, el.getBoundingClientRect()) && !animated()) && !(await stable(el))) return { problem: 'moving' };

  // allowed: what an event of the action may reach — the element, what it
  // holds, its labels, and the control it labels.
  const allowed = new Set([el, subject, ...labels(el), ...labels(subject)]);
  // A click inside a label is forwarded to its control (the label's
  // activation): that click is the page's own consequence of the press.
  for (let n = el; n; n = n.parentElement || (n.getRootNode() instanceof ShadowRoot ? n.getRootNode().host : null)) {
    if (n.localName === 'label' && n.control) allowed.add(n.control);
  }
  allowed.delete(null);
  // scopes: the element's window and every shadow root around it. A
  // listener sees a retargeted path (a closed root hides what is inside),
  // so each scope checks against the element's stand-in there: the element
  // itself or the shadow host that holds it.
  const scopes = [];
  for (let n = el; ;) {
    const root = n.getRootNode();
    if (root instanceof ShadowRoot) { scopes.push({ at: root, anchor: n }); n = root.host; continue; }
    scopes.push({ at: el.ownerDocument.defaultView, anchor: n });
    break;
  }
  const idleMs = 3000;
  const st = { blocked: null, fp: fingerprint(el), pressed: false, events: 0, last: performance.now() };
  const added = new WeakSet();
  const mo = new MutationObserver((ms) => { for (const m of ms) for (const a of m.addedNodes) added.add(a); });
  for (const s of scopes) mo.observe(s.at === el.ownerDocument.defaultView ? el.ownerDocument : s.at, { childList: true, subtree: true });
  const inserted = (n) => { for (let e = n; e; e = e.parentNode) if (added.has(e)) return true; return false; };
  const reaches = (path, anchor) => path.includes(anchor) || (anchor === el && path.some((n) => allowed.has(n)));
  const press = /^(pointerdown|mousedown|dragstart|drop)$/;
  // listen adds a listener, and says how to remove it. A capture listener
  // of the element's window goes into guardboot.js's, added at document
  // start before any of the page's: no page listener runs before it.
  const offs = [];
  const first = globalThis.__axfuseFirst;
  const listen = (at, type, h, capture) => {
    if (capture && first && at === first.win && first.add(type, h)) {
      offs.push(() => first.remove(type, h));
      return;
    }
    at.addEventListener(type, h, capture);
    offs.push(() => at.removeEventListener(type, h, capture));
  };
  const stop = (ev, why) => { if (!st.blocked) st.blocked = why; ev.preventDefault(); ev.stopImmediatePropagation(); };
  for (const s of scopes) {
    const h = (ev) => {
      if (!ev.isTrusted) return; // the page's own synthetic events are not the action's
      // An action's events come milliseconds apart. One long after the
      // last is not the action's: a dialog it opened held the page, or the
      // process that armed the guard is gone. The guard stands down.
      const now = performance.now();
      if (now - st.last > idleMs) { disarm(); return; }
      st.last = now;
      st.events++;
      if (st.blocked) return stop(ev, st.blocked);
      // Once an HTML5 drop reached the element, what follows (the
      // release, the page's own moves) is the drop's doing.
      if (st.dropped) return;
      // After the press the pointer's moves are the gesture's own: a drag
      // leaves the element it started on.
      if (st.pressed && /move|over/.test(ev.type)) return;
      // Once keys go to the field, what they cause is the page's doing: an
      // Enter submits its form with a click on the form's default button.
      const key = /^(key|beforeinput|input$)/.test(ev.type);
      if (st.keyed && !key) return;
      if (key) {
        st.keyed = true;
        // The browser's own move of the focus (a Tab, an arrow in a radio
        // group) sends the rest of the keys where it went: theirs.
        if (st.focusMovedByDefault && /^(keyup|keypress|input)$/.test(ev.type)) return;
        // A listener of the page that ran before this one (it registered
        // first) may have moved the focus already: the key would reach
        // what it moved it to.
        if (s.anchor === el && focusWatch && ev.type !== 'keyup' && ev.type !== 'input' && elsewhere()) {
          return focusStolen(ev, deepActive());
        }
        st.keyEvent = ev;
      }
      let path = ev.composedPath();
      // The release of a mouse drag goes where the pointer captured it
      // (often the dragged handle): it lands on the drop end when the
      // event reaches it, or when what lies under the point does (what
      // the page's own drop logic reads).
      if (o.verb === 'drop' && /^(pointerup|mouseup)$/.test(ev.type) && !reaches(path, s.anchor)) path = pathAt(ev.clientX, ev.clientY) || path;
      if (!reaches(path, s.anchor)) {
        // A pointer that follows an element a hover moved passes over
        // other nodes before the press: the page does not see those
        // moves, and the press is still judged on its own.
        if (o.follow && !st.pressed && /move|over/.test(ev.type)) { ev.preventDefault(); ev.stopImmediatePropagation(); return; }
        const hit = path[0];
        return stop(ev, { event: ev.type, hit: describe(hit), inserted: inserted(hit) });
      }
      if (s.anchor === el && /^(pointer|mouse)(move|over)$/.test(ev.type)) st.point = [ev.clientX, ev.clientY];
      if (!st.pressed && !o.owner && s.anchor === el && /^(pointer|mouse|drag)/.test(ev.type)) {
        // Up to the press, the element must still be what the agent saw:
        // a hover that swaps its label or role swaps what a click means.
        const now = fingerprint(el);
        if (now !== st.fp) return stop(ev, { event: ev.type, changed: short(el.textContent, 80) || short(el.getAttribute('aria-label'), 80) });
        if (press.test(ev.type)) st.pressed = true;
      }
      if (s.anchor === el && /^(pointerup|mouseup)$/.test(ev.type)) st.released = true;
      if (o.verb === 'drop' && ev.type === 'drop') st.dropped = true;
    };
    for (const type of o.events) listen(s.at, type, h, true);
  }
  // The focus watch, for keys: the page moving the focus off the field
  // while one of the action's keys is being dispatched (a keydown handler
  // that focuses a Delete button, a beforeinput one that focuses another
  // field or a frame) would send the rest of the keys, and the text, to
  // what it focused. The key is cancelled (no keypress, no text, no
  // activation), the action stops, and the focus goes back to the field
  // so that the key's release lands there and not in the other element
  // (or in a frame, where this guard does not listen). A move after the
  // dispatch is the browser's own default action (Tab) and is followed.
  const focusWatch = o.events.includes('keydown') && !!subject;
  const focusName = (to) => to && to !== el.ownerDocument.body ? describe(to) : 'another frame or window';
  function focusStolen(ev, to) {
    if (!st.blocked) st.blocked = { event: ev.type, hit: focusName(to), focus: true };
    const b = st.blocked;
    ev.preventDefault();
    ev.stopImmediatePropagation();
    queueMicrotask(() => {
      // A move into a frame is not over when the focusout fires: name
      // where it went once it is.
      if (b.focus && b.hit === 'another frame or window') b.hit = focusName(deepActive());
      if (subject.isConnected) subject.focus({ preventScroll: true });
    });
  }
  const elsewhere = () => { const a = deepActive(); return a !== subject && !(subject.isContentEditable && subject.contains(a)); };
  const onFocusOut = (ev) => {
    if (!ev.isTrusted) return;
    const left = ev.composedPath()[0];
    if (left !== subject && !(subject.isContentEditable && subject.contains(left))) return;
    const k = st.keyEvent;
    if (k && k.eventPhase !== Event.NONE) {
      // Moved by a script while the key is on its way.
      if (!st.blocked) focusStolen(k, ev.relatedTarget || el.ownerDocument.activeElement);
      return;
    }
    // After a keydown's dispatch: its default action (Tab, an arrow in a
    // radio group). Text input moves no focus by default.
    if (k && /^key(down|press)$/.test(k.type) && !st.blocked) st.focusMovedByDefault = true;
  };
  // The same check once the page's handlers had the key (bubbling up to
  // the window): Chrome may queue the focus events of a move made while
  // text input is dispatched until after it, so the watch above misses
  // that one.
  const afterHandlers = (ev) => {
    if (ev.isTrusted && st.keyEvent === ev && !st.blocked && elsewhere()) focusStolen(ev, deepActive());
  };
  if (focusWatch) {
    const win = el.ownerDocument.defaultView;
    // A move between two elements of one shadow root stops at the root:
    // the window never sees its focusout (the event's target and related
    // target are the same host out there). Each root around the element
    // is watched as well.
    for (const s of scopes) listen(s.at, 'focusout', onFocusOut, true);
    for (const type of ['keydown', 'keypress', 'beforeinput']) listen(win, type, afterHandlers, false);
  }
  // judgePoint: what the browser's hit test reaches now where the pointer
  // moved, asked between the move and the press (Peek). What the move
  // made the page do — a frame or a clear link slid over the point, a
  // listener of the page's that ran before this guard's — is judged by
  // the browser itself, and a press that would not reach the element is
  // never sent (inside a frame the guard cannot stop it).
  // pathAt: the browser's hit test at (x, y) of the element's frame,
  // through open shadow roots, and the nodes up from what it reached.
  function pathAt(x, y) {
    let h = el.ownerDocument.elementFromPoint(x, y);
    while (h && h.shadowRoot) {
      const d = h.shadowRoot.elementFromPoint(x, y);
      if (!d || d === h) break;
      h = d;
    }
    if (!h) return null;
    const path = [];
    for (let n = h; n; n = n.parentNode || (n instanceof ShadowRoot ? n.host : null)) path.push(n);
    return path;
  }
  const judgePoint = () => {
    const [x, y] = st.point;
    const path = pathAt(x, y);
    if (!path) return;
    const h = path[0];
    // A closed shadow root around the element hides where in it the point
    // falls: its host stands for it, and the press is judged as it lands.
    const closedHost = scopes.some((s) => s.at instanceof ShadowRoot && s.at.host === h);
    if (!reaches(path, el) && !closedHost) st.blocked = { event: 'pointermove', hit: describe(h), inserted: inserted(h) };
  };
  const token = String(Math.random()).slice(2);
  function deepActive() {
    let a = el.ownerDocument.activeElement;
    while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
    return a;
  }
  // where: the element's box and value, to say what an action changed.
  const where = () => {
    const r = el.getBoundingClientRect();
    const v = el.getAttribute('aria-valuenow') ?? (subject && 'value' in subject ? subject.value : '');
    return { box: [r.x, r.y, r.width, r.height], value: short(v, 200) };
  };
  // aim: where a press on a field with parts of its own reaches the field
  // and not a part (decision 2026-12-07-a-verb-is-judged-by-its-outcome).
  // A number field's spin buttons step its value, a search field's cancel
  // button empties it, a list's indicator opens its suggestions: the
  // browser draws them at the field's end, inside the element, so the
  // hit test and every event name the field itself. A press on the field
  // goes near its start instead; where the parts leave no room for one
  // (a narrow number field), the field is focused without a pointer. A
  // click on a range goes on its thumb: one on the track moves the value.
  function aim() {
    if (o.verb !== 'type' && o.verb !== 'click') return {};
    const f = el.localName === 'label' && el.control ? el.control : el;
    if (f.localName !== 'input' || f.disabled) return {};
    const r = f.getBoundingClientRect(), cs = getComputedStyle(f), px = (v) => parseFloat(v) || 0;
    const left = r.left + px(cs.borderLeftWidth) + px(cs.paddingLeft);
    const right = r.right - px(cs.borderRightWidth) - px(cs.paddingRight);
    if (f.type === 'range' && o.verb === 'click' && !/vertical/.test(cs.writingMode + cs.appearance)) {
      // A press on a range's track moves its thumb there: a click goes on
      // the thumb, where the value is (Chrome's thumb is 16 px wide).
      const min = +f.min || 0, max = f.max === '' ? 100 : +f.max, v = +f.value;
      const frac = max > min ? Math.min(1, Math.max(0, (v - min) / (max - min))) : 0;
      const thumb = Math.min(16, right - left), at = thumb / 2 + frac * (right - left - thumb);
      return { aim: [cs.direction === 'rtl' ? right - at : left + at, r.top + r.height / 2] };
    }
    const parts = f.type === 'number' ? 17 : f.type === 'search' ? 18 : f.hasAttribute('list') && textTypes.test(f.type) ? 22 : 0;
    if (!parts) return {};
    const room = right - left - parts;
    if (room < 3) return { pointerless: true };
    const x = cs.direction === 'rtl' ? right - Math.min(3, room / 2) : left + Math.min(3, room / 2);
    return { aim: [x, r.top + r.height / 2] };
  }
  let armed = true;
  const disarm = () => {
    if (!armed) return;
    armed = false;
    for (const off of offs) off();
    mo.disconnect();
  };
  // A guard whose action never finished (a dialog it opened blocks the
  // page, the process died) must not outlive it: it disarms itself.
  setTimeout(() => { disarm(); setTimeout(() => g.delete(token), 60000); }, 15000);
  // Its document going away ends the action too (a link it followed). A
  // page put in the back/forward cache keeps its guards, and its timers
  // stop there: one left armed would stop the first events of the next
  // action once the page is shown again, and no one would read it.
  const gone = () => disarm();
  for (let w = el.ownerDocument.defaultView; w; w = w.parent === w ? null : w.parent) {
    try { w.addEventListener('pagehide', gone, true); } catch (e) { break; }
    const at = w;
    offs.push(() => at.removeEventListener('pagehide', gone, true));
  }
  g.set(token, (keep) => {
    if (keep && st.point && !st.blocked && !st.pressed && !o.owner && !o.follow) judgePoint();
    // Pressed, and the release never came back to this document: it
    // landed in a frame that came over the element after the press (that
    // frame's guardboot.js dropped it), so the click did not happen.
    if (!keep && st.pressed && !st.released && !st.blocked && !o.owner && o.verb !== 'drop' && o.events.includes('pointerup')) {
      st.blocked = { event: 'pointerup', hit: 'another frame or window' };
    }
    if (!keep) disarm();
    const a = deepActive();
    const focused = !!a && (a === subject || (subject.isContentEditable && subject.contains(a))) && el.ownerDocument.hasFocus();
    const checked = subject && ('checked' in subject && subject.localName === 'input' ? subject.checked : subject.getAttribute && subject.getAttribute('aria-checked') === 'true');
    return { blocked: st.blocked, events: st.events, focused, focus: a && a !== el.ownerDocument.body ? describe(a) : 'the page', checked, ...where() };
  });
  return { token, ...where(), valueInput: o.verb === 'type' && subject.localName === 'input' && valueTypes.test(subject.type), ...aim() };
}
