// Unit tests of the viewport pass's pure functions: boxes against the
// viewport (geometry.js), paint order from hit-test stacks, and the
// delta an incremental pass sends (described, memo.js).
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const vm = require('node:vm');
const { load } = require('../../../internal/testkit/jsload/load.cjs');

// pass loads the scripts with the pass's margin set, as viewportPass sets
// it at each call.
function pass(margin) {
  const page = load(['browser/chrome/capture/viewport.js', 'browser/chrome/capture/geometry.js', 'browser/chrome/capture/memo.js'],
    { performance: { now: () => 0 } });
  vm.runInContext(`margin = ${margin}`, page.ctx);
  return page;
}

const box = (left, top, width, height) => ({ left, top, width, height, right: left + width, bottom: top + height, x: left, y: top });

test('inView: a box meets the viewport grown by the margin', () => {
  const inView = pass(0).get('inView');
  assert.equal(inView(box(10, 10, 50, 50), 800, 600), true);
  assert.equal(inView(box(10, 600, 50, 50), 800, 600), false, 'just below');
  assert.equal(inView(box(10, -50, 50, 50), 800, 600), false, 'just above');
  assert.equal(inView(box(799, 10, 50, 50), 800, 600), true, 'a pixel in from the right');
  assert.equal(inView(box(5000, 5000, 0, 0), 800, 600), true, 'no area: kept wherever it is');
  assert.equal(inView(null, 800, 600), null, 'no box');
  const grown = pass(100).get('inView');
  assert.equal(grown(box(10, 650, 50, 50), 800, 600), true, 'below, within the margin');
  assert.equal(grown(box(10, 700, 50, 50), 800, 600), false, 'below the margin');
  assert.equal(grown(box(-140, 10, 50, 50), 800, 600), true, 'left, within the margin');
});

test('dirOf: the side a box outside lies on, below first', () => {
  const dirOf = pass(0).get('dirOf');
  assert.equal(dirOf(box(10, 700, 10, 10), 800, 600), 'below');
  assert.equal(dirOf(box(10, -20, 10, 10), 800, 600), 'above');
  assert.equal(dirOf(box(900, 10, 10, 10), 800, 600), 'right');
  assert.equal(dirOf(box(-20, 10, 10, 10), 800, 600), 'left');
  assert.equal(dirOf(box(900, 700, 10, 10), 800, 600), 'below', 'below and right: below');
  assert.equal(pass(50).get('dirOf')(box(10, 620, 10, 10), 800, 600), 'left', 'within the margin: no side but the last');
});

test('within: one box inside another, a pixel of slack', () => {
  const within = pass(0).get('within');
  assert.equal(within(box(10, 10, 20, 20), box(0, 0, 100, 100)), true);
  assert.equal(within(box(-1, -1, 102, 102), box(0, 0, 100, 100)), true, 'rounding');
  assert.equal(within(box(-2, 0, 10, 10), box(0, 0, 100, 100)), false);
});

test('unionOf: the bounding box of the rects with an area', () => {
  const unionOf = pass(0).get('unionOf');
  const u = unionOf([box(10, 10, 20, 10), box(0, 0, 0, 0), box(5, 30, 10, 10)]);
  assert.deepEqual({ ...u }, { left: 5, top: 10, right: 30, bottom: 40, width: 25, height: 30, x: 5, y: 10 });
  const none = box(7, 8, 0, 0);
  assert.equal(unionOf([none, box(1, 1, 0, 0)]), none, 'none with an area: the first');
});

test('paintOrderOf: layers in tree order, after those painted before them', () => {
  const order = pass(0).get('paintOrderOf');
  // Nodes 0..4; layers 0, 2 and 3; 1 and 4 share their parents' layers.
  const layer = [0, 0, 2, 3, 3];
  assert.deepEqual([...order(5, layer, new Map())], [1, 0, 2, 3, 0], 'no probes: tree order');
  // A probe found layer 2 over layer 3: 3 paints first.
  assert.deepEqual([...order(5, layer, new Map([[2, new Set([3])]]))], [1, 0, 3, 2, 0]);
  // And the root over both (a z-index below): both paint before it.
  assert.deepEqual([...order(5, layer, new Map([[0, new Set([2, 3])], [2, new Set([3])]]))], [3, 0, 2, 1, 0]);
  // Probes that disagree (a cycle) still number every layer once.
  const cyc = [...order(5, layer, new Map([[2, new Set([3])], [3, new Set([2])]]))];
  assert.deepEqual([cyc[0], cyc[2], cyc[3]].sort(), [1, 2, 3]);
});

test('described: a node as at the memo\'s pass is sent as a delta', () => {
  const described = pass(0).get('described');
  const doc = () => ({
    styles: [['block', '1'], ['inline', '1']],
    nodes: [
      { id: 1, parent: -1, type: 9, name: '#document', nid: 0 },
      { id: 2, parent: 0, type: 1, name: 'P', nid: 1, layout: { bounds: [0, 0, 10, 10], style: 0, paintOrder: 1 } },
      { id: 3, parent: 1, type: 3, name: '#text', nid: -1, value: 'hi', layout: { bounds: [0, 0, 5, 5], style: 1, paintOrder: 1 }, fresh: 1 },
      { id: 4, parent: 1, type: 1, name: '::before', nid: -1, pseudoType: 'before', layout: { bounds: [0, 0, 10, 10], style: 0, paintOrder: 1 } },
    ],
  });
  const first = doc();
  const keys = described(first, null);
  assert.equal(keys.size, 3, 'pseudo elements have no key');
  assert.equal(first.nodes[1].name, 'P', 'no memo: sent whole');

  // The same document again, its styles listed in another order (keys
  // name styles by what they are): the text, whose backendNodeId Go holds
  // (nid -1), goes as a delta with its fresh flag and paint order; the P,
  // whose backendNodeId is asked (nid 1), goes whole.
  const again = doc();
  again.styles.reverse();
  again.nodes[1].layout.style = 1;
  again.nodes[2].layout.style = 0;
  again.nodes[2].layout.paintOrder = 7;
  described(again, keys);
  assert.equal(again.nodes[1].name, 'P');
  assert.deepEqual({ ...again.nodes[2] }, { '=': 3, p: 1, s: 0, o: 7, fresh: 1 });
  assert.equal(again.nodes[3].pseudoType, 'before');

  // A changed value is no delta.
  const changed = doc();
  changed.nodes[2].value = 'ho';
  described(changed, keys);
  assert.equal(changed.nodes[2].value, 'ho');
});
