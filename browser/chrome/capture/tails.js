// Which characters of each text a box hiding its overflow leaves shown
// (text-overflow, line-clamp, a fixed-height card): the browser's own
// layout of every character, asked through ranges. Called with the clips
// (left, top, right, bottom in document coordinates, one per text) and the text nodes; answers, per
// text, null when nothing of it is cut, else the shown prefix of its data
// ("" when nothing shows). Runs in axfuse's isolated world: it reads, it
// never changes the page.
function textTails(clips, ...texts) {
  let budget = 200000;
  let pen = null;
  const ellipsisWidth = (el) => {
    try {
      pen = pen || new OffscreenCanvas(1, 1).getContext('2d');
      pen.font = getComputedStyle(el).font;
      return pen.measureText('\u2026').width;
    } catch (e) { return 16; }
  };
  // An ellipsis is drawn where text-overflow or line-clamp truncates.
  const truncates = (el) => {
    for (let a = el, k = 0; a && k < 32; a = a.parentElement, k++) {
      const cs = getComputedStyle(a);
      if (cs.textOverflow && cs.textOverflow !== 'clip') return true;
      const lc = cs.getPropertyValue('-webkit-line-clamp') || cs.getPropertyValue('line-clamp');
      if (lc && lc !== 'none') return true;
    }
    return false;
  };
  const range = document.createRange();
  const cutOf = (t, c) => {
    if (!t || t.nodeType !== 3 || !t.isConnected || !Array.isArray(c) || c.length !== 4) return null;
    const el = t.parentElement;
    if (!el) return null;
    const sx = window.scrollX, sy = window.scrollY;
    const [L, T, R, B] = c;
    const data = t.data, n = Math.min(data.length, 20000);
    const boxes = new Array(n);
    const inside = (q) => { const my = (q[1] + q[3]) / 2, mx = (q[0] + q[2]) / 2; return mx >= L && mx <= R && my >= T && my <= B; };
    let hidden = -1;
    for (let k = 0; k < n; k++) {
      if (/\s/.test(data[k])) continue;
      if (budget-- <= 0) { hidden = k; break; } // past the budget: cut (fail closed)
      range.setStart(t, k);
      range.setEnd(t, Math.min(k + 1, data.length));
      const rs = range.getClientRects();
      if (!rs.length) continue; // not laid out (collapsed)
      const r = rs[0];
      const q = [r.left + sx, r.top + sy, r.right + sx, r.bottom + sy];
      boxes[k] = q;
      if (!inside(q)) { hidden = k; break; }
    }
    if (hidden < 0 && n === data.length) return null;
    let cut = hidden < 0 ? n : hidden;
    // The line the cut ends: an ellipsis takes room at its end, hiding
    // the characters it is drawn over.
    let last = cut - 1;
    while (last >= 0 && !boxes[last]) last--;
    if (last >= 0 && truncates(el)) {
      const ell = ellipsisWidth(el), top = boxes[last][1];
      for (let k = last; k >= 0; k--) {
        const q = boxes[k];
        if (!q) continue;
        if (Math.abs(q[1] - top) > 1) break;
        if (q[2] <= R - ell + 0.5) break;
        cut = k;
      }
    }
    return data.slice(0, cut);
  };
  return texts.map((t, i) => cutOf(t, clips[i]));
}
