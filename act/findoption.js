(function (want) {
  const doc = this.ownerDocument, norm = (s) => (s || '').replace(/\s+/g, ' ').trim().toLowerCase();
  const label = (o) => norm(o.getAttribute('aria-label') || o.textContent);
  const shown = (o) => { const r = o.getBoundingClientRect(); return r.width > 0 && r.height > 0 && o.checkVisibility({ visibilityProperty: true }); };
  const ids = ((this.getAttribute('aria-controls') || '') + ' ' + (this.getAttribute('aria-owns') || '')).split(/\s+/).filter(Boolean);
  const places = [this, ...ids.map((id) => doc.getElementById(id)).filter(Boolean), doc];
  for (const p of places) {
    const opts = [...p.querySelectorAll('[role=option]')].filter(shown);
    const o = opts.find((o) => label(o) === norm(want)) || opts.find((o) => label(o).includes(norm(want)));
    if (o) return o;
  }
  return null;
})
