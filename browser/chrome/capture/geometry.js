/* global margin */
// Boxes against the viewport (W × H, grown by the pass's margin), for the
// viewport pass (viewport.js). Pure: viewport.test.cjs tests them.

// A box with no area has no place to lie in (fuse gives it no direction):
// it stays, wherever it is.
function inView(r, W, H) {
  return r && (r.width === 0 && r.height === 0 || !(r.top >= H + margin || r.bottom <= -margin || r.left >= W + margin || r.right <= -margin));
}

// within: b lies inside a (a pixel of slack for rounding).
function within(b, a) { return b.left >= a.left - 1 && b.top >= a.top - 1 && b.right <= a.right + 1 && b.bottom <= a.bottom + 1; }

// dirOf is the side of the viewport a box outside it lies on.
function dirOf(r, W, H) { return r.top >= H + margin ? 'below' : r.bottom <= -margin ? 'above' : r.left >= W + margin ? 'right' : 'left'; }

// unionOf is a range's bounding box from its client rects, as
// Range.getBoundingClientRect makes it (CSSOM View) without a second
// trip to layout: the smallest box holding every rect with a width or a
// height, else the first rect.
function unionOf(rs) {
  let l = Infinity, t = Infinity, r = -Infinity, b = -Infinity;
  for (const x of rs) {
    if (!x.width && !x.height) continue;
    l = Math.min(l, x.left); t = Math.min(t, x.top); r = Math.max(r, x.right); b = Math.max(b, x.bottom);
  }
  if (l === Infinity) return rs[0];
  return { left: l, top: t, right: r, bottom: b, width: r - l, height: b - t, x: l, y: t };
}

// paintOrderOf numbers the layers (the nodes k with layer[k] === k, of
// count nodes) in paint order, from 1: a layer after those before says
// are painted before it (before: layer -> Set of layers), else in tree
// order. A cycle (two probes that disagree) is broken where the walk
// meets it.
function paintOrderOf(count, layer, before) {
  const order = new Int32Array(count);
  const state = new Uint8Array(count); // 0 new, 1 visiting, 2 done
  let next = 1;
  for (let k = 0; k < count; k++) {
    if (state[k] || layer[k] !== k) continue;
    const todo = [k];
    while (todo.length) {
      const v = todo[todo.length - 1];
      if (state[v] === 0) {
        state[v] = 1;
        const s = before.get(v);
        if (s) for (const u of s) if (state[u] === 0) todo.push(u);
        continue;
      }
      todo.pop();
      if (state[v] === 1) { state[v] = 2; order[v] = next++; }
    }
  }
  return order;
}
