// Unit tests of settle.js, the page side of settling after an action, on
// a fake window: which timers, DOM changes, animations and requests it
// counts as the action's, and what it says about the pixels.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const { load, root } = require('../../internal/testkit/jsload/load.cjs');

const file = path.join(root, 'browser/chrome/settle.js');
const source = fs.readFileSync(file, 'utf8');
const KEY = '__axfuseSettleTest';

// byValue is what Runtime.evaluate's returnByValue hands back: JSON.
const byValue = (v) => JSON.parse(JSON.stringify(v));

// fakePage is a window whose timers run when the test says, a document
// whose animations and elements the test sets, a clock the test moves,
// and settle.js's function in a fresh context of its own (settle.go
// sends it as "(<settle.js>)(key, op)").
function fakePage() {
  const page = { now: 1000, timers: [], animations: [], selectors: {}, observers: [], listeners: {} };
  let ids = 0;
  const win = {
    setTimeout(cb, delay) { const id = ++ids; page.timers.push({ id, cb, delay }); return id; },
    clearTimeout(id) { page.timers = page.timers.filter((t) => t.id !== id); },
    addEventListener(type, h) { (page.listeners[type] ||= []).push(h); },
    fetch: () => 'response',
  };
  const doc = {
    querySelectorAll: (sel) => page.selectors[sel] || [],
    querySelector: (sel) => (page.selectors[sel] || [])[0] || null,
    getAnimations: () => page.animations,
  };
  function MutationObserver(cb) { this.cb = cb; page.observers.push(this); }
  MutationObserver.prototype.observe = function () {};
  MutationObserver.prototype.takeRecords = () => [];
  function Element() {}
  const ctx = load([], { window: win, document: doc, MutationObserver, Element, performance: { now: () => page.now } }).ctx;
  const settle = vm.runInContext('(' + source + '\n)', ctx, { filename: file });
  Object.assign(page, { win, doc });
  page.op = (op) => byValue(settle(KEY, op));
  page.tracker = () => win[KEY];
  // input dispatches a trusted input event: the action's context opens
  // until its task ends (the zero timer settle.js sets).
  page.input = (type = 'click') => { for (const h of page.listeners[type] || []) h({ type, isTrusted: true }); };
  // runTimers runs the timers set so far that are due within ms, in
  // order; those they set wait for the next call.
  page.runTimers = (ms = 0) => {
    const due = page.timers.filter((x) => (+x.delay || 0) <= ms).sort((a, b) => a.delay - b.delay);
    page.timers = page.timers.filter((x) => !due.includes(x));
    for (const t of due) t.cb();
  };
  // mutate reports DOM changes of nodes to settle.js's observer.
  page.mutate = (...nodes) => page.observers[0].cb(nodes.map((target) => ({ target })));
  return page;
}

const idle = { caused: 0, quietFor: -1, background: 0, sent: 0, navigating: false, wide: 0, listenSeq: 0, timers: 0, timerDue: 0, animations: 0, animationLeft: 0 };

test('install installs the tracker once, out of the page\'s sight', () => {
  const p = fakePage();
  assert.deepEqual(p.op('install'), idle);
  const s = p.tracker();
  assert.ok(s);
  assert.equal(Object.keys(p.win).includes(KEY), false, 'not enumerable');
  p.op('install');
  assert.equal(p.tracker(), s);
  assert.equal(p.observers.length, 1);
});

test('a timer the action\'s handler sets is waited for; a long or earlier one is not', () => {
  const p = fakePage();
  p.op('install');
  p.win.setTimeout(() => {}, 100); // before the action
  p.op('arm');
  p.input('click');
  let ran = 0;
  p.win.setTimeout(() => { ran++; }, 500);
  p.win.setTimeout(() => {}, 5000); // longer than LIMIT
  assert.deepEqual({ ...p.op('state'), quietFor: 0 }, { ...idle, quietFor: 0, timers: 1, timerDue: 500 });
  p.runTimers(0); // the input's task ends
  p.win.setTimeout(() => {}, 300); // not in the action's context
  assert.equal(p.op('state').timers, 1);
  p.runTimers(500);
  assert.equal(ran, 1);
  assert.equal(p.op('state').timers, 0);
});

test('a timer set by the action\'s timer is the action\'s too, to a depth', () => {
  const p = fakePage();
  p.op('install');
  p.op('arm');
  p.input();
  let depth = 0;
  const chain = () => { depth++; p.win.setTimeout(() => chain(), 10); };
  p.win.setTimeout(() => chain(), 10);
  p.runTimers(0);
  for (let i = 0; i < 10 && p.op('state').timers; i++) p.runTimers(10);
  assert.equal(depth, 4, 'DEPTH timers are waited for; the next runs unwatched');
  assert.equal(p.op('state').timers, 0);
});

test('a timer that sets itself again (a polling loop) is waited for once', () => {
  const p = fakePage();
  p.op('install');
  p.op('arm');
  p.input();
  let runs = 0;
  const poll = () => { runs++; p.win.setTimeout(poll, 10); };
  p.win.setTimeout(poll, 10);
  p.runTimers(0);
  assert.equal(p.op('state').timers, 1);
  p.runTimers(10);
  assert.equal(runs, 1);
  assert.equal(p.op('state').timers, 0);
});

test('a cleared timer is not waited for, nor one well past its time', () => {
  const p = fakePage();
  p.op('install');
  p.op('arm');
  p.input();
  const id = p.win.setTimeout(() => {}, 200);
  p.win.setTimeout(() => {}, 100);
  assert.equal(p.op('state').timers, 2);
  p.win.clearTimeout(id);
  assert.equal(p.op('state').timers, 1);
  p.now += 100 + 251;
  assert.equal(p.op('state').timers, 0);
});

test('a node that changes on its own is background; the action\'s changes are caused', () => {
  const p = fakePage();
  p.op('install');
  const clock = { nodeType: 1 }, list = { nodeType: 1 };
  p.mutate(clock);
  p.now += 500;
  p.mutate(clock);
  p.now += 500;
  p.op('arm');
  p.now += 10;
  p.mutate(clock, list, { nodeType: 3, parentNode: list });
  p.now += 40;
  const st = p.op('state');
  assert.equal(st.background, 1);
  assert.equal(st.caused, 2, 'a text node counts as its element');
  assert.equal(st.quietFor, 40);
});

test('a node changed more than 12 times in one action turns background', () => {
  const p = fakePage();
  p.op('install');
  p.op('arm');
  const ticker = { nodeType: 1 };
  for (let i = 0; i < 15; i++) p.mutate(ticker);
  const st = p.op('state');
  assert.equal(st.caused, 12);
  assert.equal(st.background, 3);
});

test('idle ends the action: changes then count for no one', () => {
  const p = fakePage();
  p.op('install');
  p.op('arm');
  p.op('idle');
  p.mutate({ nodeType: 1 });
  const st = p.op('state');
  assert.equal(st.caused, 0);
  assert.equal(st.background, 0);
});

// animation is a running animation started at `start`, its local time at
// `at` of `end` ms, over the properties of keyframes.
const animation = (start, at, end, keyframes, rate = 1) => ({
  playState: 'running', startTime: start, playbackRate: rate,
  effect: { getComputedTiming: () => ({ endTime: end, localTime: at }), getKeyframes: () => keyframes },
});

test('the action\'s animations are waited for, colours alone are not', () => {
  const p = fakePage();
  p.op('install');
  p.op('arm'); // at 1000
  p.animations = [
    animation(1000, 100, 300, [{ offset: 0, transform: 'none' }, { offset: 1, transform: 'scale(2)' }]),
    animation(1000, 0, 1000, [{ offset: 0, color: 'red', easing: 'ease' }, { offset: 1, backgroundColor: 'blue' }]),
    animation(900, 0, 5000, [{ opacity: 0 }]), // began before the action
    animation(1000, 100, 500, [{ height: '0px' }], 2),
    animation(1000, 0, Infinity, [{ opacity: 0 }]), // endless
  ];
  const st = p.op('state');
  assert.equal(st.animations, 2);
  assert.equal(st.animationLeft, 200);
});

test('paint: the pixels\' generation while nothing paints on its own, else none', () => {
  const p = fakePage();
  p.op('install');
  const { gen } = p.op('paint');
  assert.match(gen, /^[a-z0-9]+:0$/);
  p.mutate({ nodeType: 1 });
  assert.equal(p.op('paint').gen, gen.replace(/:0$/, ':1'));
  p.animations = [{ playState: 'finished', currentTime: 300, pending: false }];
  assert.equal(p.op('paint').gen, gen.replace(/:0$/, ':1:finished@300'), 'a held last frame is part of the picture');
  p.animations = [{ playState: 'running', currentTime: 30 }];
  assert.equal(p.op('paint').gen, '');
  p.animations = [];
  p.selectors.video = [{ paused: false, ended: false }];
  assert.equal(p.op('paint').gen, '', 'a playing video');
  p.selectors.video = [];
  p.selectors['iframe, frame, object, embed, animate, animateTransform, animateMotion, set'] = [{}];
  assert.equal(p.op('paint').gen, '', 'a frame paints on its own');
});

test('requests the action sends are counted at once', () => {
  const p = fakePage();
  p.op('install');
  assert.equal(p.win.fetch('/a'), 'response');
  p.op('arm');
  p.win.fetch('/b'); // not from the action's handlers
  p.input('keydown');
  p.win.fetch('/c');
  assert.equal(p.op('state').sent, 1);
  p.op('arm');
  assert.equal(p.op('state').sent, 0, 'arm starts counting anew');
});

test('an untrusted event opens no action context', () => {
  const p = fakePage();
  p.op('install');
  p.op('arm');
  for (const h of p.listeners.click) h({ type: 'click', isTrusted: false });
  p.win.setTimeout(() => {}, 100);
  assert.equal(p.op('state').timers, 0);
});
