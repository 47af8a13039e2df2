(async function (x, y) {
  const frame = () => new Promise((done) => { requestAnimationFrame(() => done()); setTimeout(done, 50); });
  const view = this.ownerDocument.defaultView;
  for (let i = 0; i < 3; i++) {
    await frame();
    const r = this.getBoundingClientRect();
    if (x >= r.left && x < r.right && y >= r.top && y < r.bottom) continue;
    const l = Math.max(r.left, 0), t = Math.max(r.top, 0);
    const rr = Math.min(r.right, view.innerWidth), b = Math.min(r.bottom, view.innerHeight);
    if (rr - l < 1 || b - t < 1) return null;
    return [(l + rr) / 2, (t + b) / 2];
  }
  return null;
})
