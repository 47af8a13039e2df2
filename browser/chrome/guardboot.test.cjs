// Unit tests of guardboot.js, the guard's first listeners, on a fake
// window: which trusted events it drops when no guard is armed, and how
// guard.js hooks in.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const { load, root } = require('../../internal/testkit/jsload/load.cjs');

// boot runs guardboot.js against a fake window and returns a dispatcher
// of trusted events to the listeners it added.
function boot() {
  const listeners = new Map();
  const win = {
    addEventListener(type, h, capture) {
      assert.equal(capture, true, 'guardboot listens in the capture phase');
      listeners.set(type, h);
    },
  };
  const page = load(['browser/chrome/guardboot.js'], { window: win });
  const fire = (type, props = {}) => {
    const ev = {
      type, isTrusted: true, code: '', buttons: 0, relatedTarget: null, dropped: false,
      preventDefault() { this.prevented = true; },
      stopImmediatePropagation() { this.dropped = true; },
      ...props,
    };
    listeners.get(type)(ev);
    return ev;
  };
  return { page, win, listeners, fire, first: page.get('__axfuseFirst') };
}

test('a release whose press this document never saw is dropped', () => {
  const { fire } = boot();
  for (const type of ['pointerup', 'mouseup', 'click', 'dblclick', 'auxclick']) {
    const ev = fire(type);
    assert.ok(ev.dropped && ev.prevented, type + ' with no press');
  }
});

test('a release after a press here goes through', () => {
  const { fire } = boot();
  assert.equal(fire('pointerdown').dropped, false);
  assert.equal(fire('pointerup').dropped, false);
  assert.equal(fire('click').dropped, false);
});

test('the pointer leaving with no button held needs a new press here', () => {
  const { fire } = boot();
  fire('mousedown');
  fire('mouseout', { relatedTarget: {}, buttons: 0 }); // still inside: nothing changes
  assert.equal(fire('mouseup').dropped, false);
  fire('pointerout', { relatedTarget: null, buttons: 1 }); // left, a button held
  assert.equal(fire('click').dropped, false);
  fire('pointerout', { relatedTarget: null, buttons: 0 }); // left, no button
  assert.equal(fire('click').dropped, true);
});

test('a key tail whose keydown this document never saw is dropped', () => {
  const { fire } = boot();
  assert.equal(fire('keyup', { code: 'KeyA' }).dropped, true);
  assert.equal(fire('keypress', { code: 'KeyA' }).dropped, true);
  fire('keydown', { code: 'KeyA' });
  assert.equal(fire('keypress', { code: 'KeyA' }).dropped, false);
  assert.equal(fire('keyup', { code: 'KeyA' }).dropped, false);
  // keyup forgot the key: its next tail is a stray again.
  assert.equal(fire('keyup', { code: 'KeyA' }).dropped, true);
  // A key with no code (an IME's) is never judged a stray.
  assert.equal(fire('keyup', { code: '' }).dropped, false);
});

test('events that are not a release or key tail go through', () => {
  const { fire } = boot();
  for (const type of ['pointermove', 'mouseover', 'keydown', 'input', 'beforeinput', 'dragover', 'drop', 'focusout']) {
    assert.equal(fire(type, { code: 'KeyB' }).dropped, false, type);
  }
});

test('the page\'s own synthetic events are left alone', () => {
  const { fire } = boot();
  assert.equal(fire('click', { isTrusted: false }).dropped, false);
});

test('an armed guard\'s hooks take the events, and nothing is dropped here', () => {
  const { fire, first, win } = boot();
  assert.equal(first.win, win);
  const seen = [];
  const hook = (ev) => seen.push(ev.type);
  assert.equal(first.add('click', hook), true);
  const ev = fire('click');
  assert.deepEqual(seen, ['click']);
  assert.equal(ev.dropped, false, 'the guard judges it, not guardboot');
  first.remove('click', hook);
  assert.equal(fire('click').dropped, true, 'no hook: a stray again');
});

test('a type guardboot does not listen for cannot be hooked', () => {
  const { first, listeners } = boot();
  assert.equal(first.add('scroll', () => {}), false);
  assert.equal(listeners.has('scroll'), false);
  assert.ok(Object.isFrozen(first));
});

test('it installs once per world', () => {
  const { page, listeners } = boot();
  const before = page.get('__axfuseFirst');
  listeners.clear();
  vm.runInContext(fs.readFileSync(path.join(root, 'browser/chrome/guardboot.js'), 'utf8'), page.ctx);
  assert.equal(page.get('__axfuseFirst'), before);
  assert.equal(listeners.size, 0, 'no second set of listeners');
});
