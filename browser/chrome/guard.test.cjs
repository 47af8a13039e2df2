// Unit tests of guard.js, the input-time guard, on a small fake DOM: what
// it says stops an action before any event (detached, not editable,
// hidden, disabled, …), and how its armed listeners judge the action's
// events.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const { load, root } = require('../../internal/testkit/jsload/load.cjs');

const file = path.join(root, 'browser/chrome/guard.js');
const source = fs.readFileSync(file, 'utf8');

// byValue is what Runtime.callFunctionOn's returnByValue hands back: JSON.
const byValue = (v) => JSON.parse(JSON.stringify(v));

// fakePage is a window and a document, a clock the test moves, and the
// guard.js function in a fresh context of its own. guard.js is the text of
// one function (callFunctionOn's functionDeclaration): it is evaluated in
// parentheses, as the browser does.
function fakePage() {
  const page = { now: 1000, listeners: [] };
  const win = {
    addEventListener(type, h, capture) { page.listeners.push({ type, h, capture }); },
    removeEventListener(type, h, capture) {
      page.listeners = page.listeners.filter((l) => !(l.type === type && l.h === h && l.capture === capture));
    },
  };
  win.parent = win;
  const doc = { nodeType: 9, defaultView: win, body: null, activeElement: null, getAnimations: () => [], hasFocus: () => true };
  const ctx = load([], {
    performance: { now: () => page.now },
    setTimeout: () => 0, // the guard's self-disarm after 15 s never comes here
    MutationObserver: class { observe() {} disconnect() {} },
    ShadowRoot: class {},
    Event: { NONE: 0 },
    // No borders or padding; the direction is the element's style's.
    getComputedStyle: (el) => ({
      borderLeftWidth: '0px', paddingLeft: '0px', borderRightWidth: '0px', paddingRight: '0px',
      writingMode: 'horizontal-tb', appearance: 'auto', direction: 'ltr', ...el.style,
    }),
  }).ctx;
  const guard = vm.runInContext('(' + source + '\n)', ctx, { filename: file });
  Object.assign(page, { win, doc, ctx });
  // arm calls guard.js on el (its `this`) with options o.
  page.arm = async (el, o) => byValue(await guard.call(el, { events: ['click'], ...o }));
  // finish reads the verdict of the guard armed with token.
  page.finish = (token, keep = false) => byValue(vm.runInContext('__axfuseGuards', ctx).get(token)(keep));
  // fire dispatches a trusted event to the guard's window listeners.
  page.fire = (type, targetPath, props = {}) => {
    const ev = {
      type, isTrusted: true, clientX: 0, clientY: 0, stopped: false, prevented: false,
      composedPath: () => targetPath,
      preventDefault() { this.prevented = true; },
      stopImmediatePropagation() { this.stopped = true; },
      ...props,
    };
    for (const l of page.listeners.filter((x) => x.type === type && x.capture)) l.h(ev);
    return ev;
  };
  // element makes an element of this document: a 100×30 box at (10, 20),
  // shown, connected, with attributes attrs.
  page.element = (localName, props = {}, attrs = {}) => ({
    nodeType: 1, localName, id: '', classList: [], textContent: '', isConnected: true, isContentEditable: false,
    parentElement: null, parentNode: null, ownerDocument: doc, labels: null,
    box: { x: 10, y: 20, width: 100, height: 30 },
    getAttribute: (n) => (n in attrs ? attrs[n] : null),
    hasAttribute: (n) => n in attrs,
    matches(sel) {
      if (sel === ':disabled') return !!this.disabled;
      const m = /^\[([\w-]+)\]$/.exec(sel);
      return !!m && m[1] in attrs;
    },
    getRootNode: () => doc,
    getBoundingClientRect() {
      const { x, y, width, height } = this.box;
      return { x, y, width, height, left: x, top: y, right: x + width, bottom: y + height };
    },
    checkVisibility: () => true,
    querySelectorAll: () => [],
    contains(n) { for (let e = n; e; e = e.parentNode) if (e === this) return true; return false; },
    ...props,
  });
  return page;
}

test('a detached element is detached', async () => {
  const p = fakePage();
  assert.deepEqual(await p.arm(p.element('button', { isConnected: false }), { verb: 'click' }), { problem: 'detached' });
});

test('type wants something editable, and names what it got', async () => {
  const p = fakePage();
  const cases = [
    [p.element('div'), 'not-editable:a <div>'],
    [p.element('article'), 'not-editable:an <article>'],
    [p.element('select'), 'not-editable:a <select>'],
    [p.element('input', { type: 'checkbox' }), 'not-editable:an <input type=checkbox>'],
    // The page's text is reduced to name characters.
    [p.element('input', { type: 'x"><b>y' }), 'not-editable:an <input type=xby>'],
  ];
  for (const [el, problem] of cases) assert.deepEqual(await p.arm(el, { verb: 'type' }), { problem });
});

test('type finds the one field a wrapper holds, or a label\'s control', async () => {
  const p = fakePage();
  const field = p.element('input', { type: 'text' });
  const wrapper = p.element('div', { querySelectorAll: () => [field] });
  assert.equal(typeof (await p.arm(wrapper, { verb: 'type' })).token, 'string');
  const two = p.element('div', { querySelectorAll: () => [field, p.element('textarea')] });
  assert.deepEqual(await p.arm(two, { verb: 'type' }), { problem: 'not-editable:a <div>' });
  const label = p.element('label', { control: p.element('input', { type: 'date' }) });
  assert.ok((await p.arm(label, { verb: 'type' })).token);
});

test('check wants a checkbox, a radio or a role that checks', async () => {
  const p = fakePage();
  assert.deepEqual(await p.arm(p.element('button'), { verb: 'check' }), { problem: 'not-checkable:a <button>' });
  assert.ok((await p.arm(p.element('div', {}, { role: 'switch' }), { verb: 'check' })).token);
  assert.ok((await p.arm(p.element('input', { type: 'checkbox' }), { verb: 'check' })).token);
  const radio = p.element('input', { type: 'radio' });
  assert.deepEqual(await p.arm(radio, { verb: 'check', want: false }), { problem: 'radio-uncheck' });
});

test('hidden: no box and nothing shown inside, or not visible', async () => {
  const p = fakePage();
  const empty = { x: 0, y: 0, width: 0, height: 0 };
  assert.deepEqual(await p.arm(p.element('a', { box: empty }), { verb: 'click' }), { problem: 'hidden' });
  assert.deepEqual(await p.arm(p.element('a', { checkVisibility: () => false }), { verb: 'click' }), { problem: 'hidden' });
  // An inline link around a positioned heading shows through it.
  const heading = p.element('h2');
  const link = p.element('a', { box: empty, querySelectorAll: () => [heading] });
  assert.ok((await p.arm(link, { verb: 'click' })).token);
});

test('disabled, when the action wants the element enabled', async () => {
  const p = fakePage();
  const off = p.element('button', { disabled: true });
  assert.deepEqual(await p.arm(off, { verb: 'click', enabled: true }), { problem: 'disabled' });
  assert.ok((await p.arm(off, { verb: 'click' })).token, 'not asked: not judged');
  const group = p.element('div', {}, { 'aria-disabled': 'true' });
  const inGroup = p.element('button', { parentElement: group, parentNode: group });
  assert.deepEqual(await p.arm(inGroup, { verb: 'click', enabled: true }), { problem: 'disabled' });
  const enabledGroup = p.element('div', {}, { 'aria-disabled': 'false' });
  const ok = p.element('button', { parentElement: enabledGroup, parentNode: enabledGroup });
  assert.ok((await p.arm(ok, { verb: 'click', enabled: true })).token);
});

test('readonly fields take no typing', async () => {
  const p = fakePage();
  assert.deepEqual(await p.arm(p.element('input', { type: 'text', readOnly: true }), { verb: 'type' }), { problem: 'readonly' });
  assert.deepEqual(await p.arm(p.element('div', { isContentEditable: true, readOnly: true }), { verb: 'type' }), { problem: 'readonly' });
});

test('a frame\'s owner is not judged before its events', async () => {
  // The <iframe> around an action's element: what lies inside is judged.
  const p = fakePage();
  const frame = p.element('iframe', { checkVisibility: () => false, disabled: true });
  assert.ok((await p.arm(frame, { verb: 'click', owner: true, enabled: true })).token);
});

test('a press on a field with parts of its own aims at the field', async () => {
  const p = fakePage();
  // A number field's spin buttons take its end: the press goes near its
  // start (3 px in), half-way down.
  assert.deepEqual((await p.arm(p.element('input', { type: 'number' }), { verb: 'click' })).aim, [13, 35]);
  const rtl = p.element('input', { type: 'search', style: { direction: 'rtl' } });
  assert.deepEqual((await p.arm(rtl, { verb: 'type' })).aim, [107, 35]);
  // Too narrow for a press beside the parts: focused with no pointer.
  const narrow = p.element('input', { type: 'number', box: { x: 10, y: 20, width: 18, height: 30 } });
  assert.equal((await p.arm(narrow, { verb: 'click' })).pointerless, true);
  // A range is clicked on its thumb, where its value is.
  const range = p.element('input', { type: 'range', min: '0', max: '', value: '50' });
  assert.deepEqual((await p.arm(range, { verb: 'click' })).aim, [60, 35]);
  const low = p.element('input', { type: 'range', min: '10', max: '20', value: '10' });
  assert.deepEqual((await p.arm(low, { verb: 'click' })).aim, [18, 35]);
  // A plain text field has no parts: the press goes where it would.
  assert.equal((await p.arm(p.element('input', { type: 'text' }), { verb: 'click' })).aim, undefined);
});

test('armed: it answers the box and value, and finishing disarms', async () => {
  const p = fakePage();
  const el = p.element('button', {}, { 'aria-valuenow': '  42 \n ' });
  const armed = await p.arm(el, { verb: 'click', events: ['click', 'pointerdown'] });
  assert.match(armed.token, /^\d+$/);
  assert.deepEqual({ ...armed, token: '' }, { token: '', box: [10, 20, 100, 30], value: '42', valueInput: false });
  assert.deepEqual(p.listeners.map((l) => l.type).sort(), ['click', 'pagehide', 'pointerdown']);
  assert.deepEqual(p.finish(armed.token), {
    blocked: null, events: 0, focused: false, focus: 'the page', checked: false, box: [10, 20, 100, 30], value: '42',
  });
  assert.deepEqual(p.listeners, [], 'every listener removed');
});

test('an event of the action that reaches another element is stopped', async () => {
  const p = fakePage();
  const el = p.element('button');
  const other = p.element('div', { id: 'over lay"<x>', classList: ['modal', 'open', 'third'] });
  const { token } = await p.arm(el, { verb: 'click' });
  const ev = p.fire('click', [other, p.doc, p.win]);
  assert.ok(ev.stopped && ev.prevented);
  const verdict = p.finish(token);
  assert.deepEqual(verdict.blocked, { event: 'click', hit: 'div#overlayx.modal.open', inserted: false });
  assert.equal(verdict.events, 1);
});

test('events that reach the element, its label or the page\'s own are let through', async () => {
  const p = fakePage();
  const input = p.element('input', { type: 'checkbox' });
  const label = p.element('label', { control: input });
  input.labels = [label];
  const { token } = await p.arm(label, { verb: 'click' });
  // The label's activation: a click on its control.
  assert.equal(p.fire('click', [input, p.doc, p.win]).stopped, false);
  assert.equal(p.fire('click', [label, p.doc, p.win]).stopped, false);
  // A synthetic click of the page's own is not the action's.
  assert.equal(p.fire('click', [p.element('a'), p.doc, p.win], { isTrusted: false }).stopped, false);
  assert.deepEqual(p.finish(token).blocked, null);
});

test('an event long after the last is not the action\'s: the guard stands down', async () => {
  const p = fakePage();
  const { token } = await p.arm(p.element('button'), { verb: 'click' });
  p.now += 3001;
  assert.equal(p.fire('click', [p.element('div'), p.doc, p.win]).stopped, false);
  assert.deepEqual(p.listeners, []);
  assert.equal(p.finish(token).blocked, null);
});

test('an element that changed before the press is not what the agent saw', async () => {
  const p = fakePage();
  const el = p.element('button', { textContent: 'Save' });
  const { token } = await p.arm(el, { verb: 'click', events: ['pointermove', 'pointerdown', 'click'] });
  assert.equal(p.fire('pointermove', [el, p.doc, p.win]).stopped, false);
  el.textContent = '  Delete\n  everything ';
  const ev = p.fire('pointerdown', [el, p.doc, p.win]);
  assert.ok(ev.stopped);
  assert.deepEqual(p.finish(token).blocked, { event: 'pointerdown', changed: 'Delete everything' });
});

test('once stopped, the rest of the action is stopped for the same reason', async () => {
  const p = fakePage();
  const el = p.element('button');
  const { token } = await p.arm(el, { verb: 'click', events: ['pointerdown', 'click'] });
  p.fire('pointerdown', [p.element('iframe'), p.doc, p.win]);
  const click = p.fire('click', [el, p.doc, p.win]);
  assert.ok(click.stopped, 'even a click on the element');
  assert.deepEqual(p.finish(token), {
    blocked: { event: 'pointerdown', hit: 'iframe', inserted: false },
    events: 2, focused: false, focus: 'the page', checked: false, box: [10, 20, 100, 30], value: '',
  });
});
