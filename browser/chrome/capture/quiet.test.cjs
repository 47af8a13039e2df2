// Unit tests of quiet.js, the watch that says whether a page is as the
// last capture left it, on a fake DOM: its status (quiet, why, cause) as
// quiet.go reads it.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { load } = require('../../../internal/testkit/jsload/load.cjs');

// page is a fake document with elements (each {name, defined, shadow})
// and the watch loaded against it; mutate queues a DOM change for the
// watch's observer.
function page(elements = []) {
  const observers = [];
  class Node { get nodeType() { return 1; } get isConnected() { return true; } }
  class Element extends Node {
    constructor(name, defined) { super(); this.name = name; this.defined = defined; }
    get localName() { return this.name; }
    get tagName() { return this.name.toUpperCase(); }
    get shadowRoot() { return null; }
    matches(sel) { return sel === ':defined' && this.defined; }
    querySelectorAll() { return []; }
  }
  class DocumentFragment { querySelectorAll() { return []; } }
  class Document extends EventTarget {
    get activeElement() { return this.active; }
    get styleSheets() { return []; }
    get URL() { return 'https://example.test/'; }
    get fonts() { return null; }
    querySelectorAll(sel) { return sel === '*' ? els : []; }
    getAnimations() { return []; }
  }
  const getters = (...names) => {
    class C {}
    for (const n of names) Object.defineProperty(C.prototype, n, { get() { return ''; } });
    return C;
  };
  const HTMLInputElement = getters('value', 'checked', 'indeterminate', 'disabled', 'type');
  const HTMLTextAreaElement = getters('value', 'disabled');
  const HTMLSelectElement = getters('value', 'selectedIndex', 'disabled', 'length', 'selectedOptions');
  const HTMLOptionElement = getters('index');
  class MutationObserver {
    constructor(cb) { this.cb = cb; this.queue = []; observers.push(this); }
    observe() {}
    disconnect() {}
    takeRecords() { const q = this.queue; this.queue = []; return q; }
  }
  const els = elements.map(e => new Element(e.name, e.defined));
  const document = new Document();
  const window = new EventTarget();
  const watch = load(['browser/chrome/capture/quiet.js'], {
    Node, Element, DocumentFragment, Document, HTMLInputElement, HTMLTextAreaElement, HTMLSelectElement, HTMLOptionElement,
    MutationObserver, EventTarget, AbortController, document, window,
    scrollX: 0, scrollY: 0, innerWidth: 800, innerHeight: 600, devicePixelRatio: 1,
  }).get('quietWatch');
  return {
    document, window,
    // check calls the watch and gives its answer as plain data.
    check: (gen, walk = false) => ({ ...watch({ token: 'token', gen, walk }) }),
    mutate: () => { for (const o of observers) o.queue.push({ type: 'attributes', target: els[0] || document, addedNodes: [] }); },
  };
}

test('the watch is quiet only for the capture it armed, with nothing changed', () => {
  const p = page();
  assert.deepEqual(p.check(0), { quiet: false, why: 'no watch of that capture', cause: '', gen: 1 });
  assert.deepEqual(p.check(1), { quiet: true, why: '', cause: '', gen: 2 });
  assert.deepEqual(p.check(1), { quiet: false, why: 'no watch of that capture', cause: '', gen: 3 }, 'an older capture');
  assert.deepEqual(p.check(3), { quiet: true, why: '', cause: '', gen: 4 });
});

test('a DOM change, an event or the focus moving is said, with no cause', () => {
  const p = page([{ name: 'p' }]);
  let gen = p.check(0).gen;
  p.mutate();
  assert.deepEqual(p.check(gen), { quiet: false, why: 'the DOM changed', cause: '', gen: gen + 1 });
  gen++;
  p.window.dispatchEvent(new Event('click'));
  assert.deepEqual(p.check(gen), { quiet: false, why: 'an event: click', cause: '', gen: gen + 1 });
  gen++;
  p.document.active = {};
  assert.deepEqual(p.check(gen), { quiet: false, why: 'the focus moved', cause: '', gen: gen + 1 });
  gen++;
  assert.equal(p.check(gen).quiet, true);
});

test('a defined custom element is cause custom, when the watch walks', () => {
  const p = page([{ name: 'x-card', defined: true }, { name: 'p' }]);
  let gen = p.check(0).gen;
  assert.equal(p.check(gen).quiet, true, 'not asked to walk: nothing seen');
  gen += 1;
  assert.deepEqual(p.check(gen, true), { quiet: false, why: 'the watch did not walk the shadow roots', cause: '', gen: gen + 1 });
  gen += 1;
  assert.deepEqual(p.check(gen, true),
    { quiet: false, why: 'a custom element is defined (its internals change unseen)', cause: 'custom', gen: gen + 1 });
  gen += 1;
  p.mutate();
  assert.deepEqual(p.check(gen, true), { quiet: false, why: 'the DOM changed', cause: '', gen: gen + 1 },
    'another change first: no cause');
});

test('an undefined custom element is no cause', () => {
  const p = page([{ name: 'x-card', defined: false }]);
  let gen = p.check(0, true).gen;
  assert.deepEqual(p.check(gen, true), { quiet: true, why: '', cause: '', gen: gen + 1 });
});
