(function (replace) {
  const f = this.localName === 'label' && this.control ? this.control : this;
  const a = f.ownerDocument.activeElement;
  const el = (a && (a === f || f.contains(a))) ? a : f;
  if ('value' in el && el.localName !== 'select') {
    const n = el.value.length;
    try { el.setSelectionRange(replace ? 0 : n, n); } catch (e) { if (replace) el.select(); }
    return;
  }
  const sel = el.ownerDocument.getSelection(), r = el.ownerDocument.createRange();
  r.selectNodeContents(el);
  if (!replace) r.collapse(false);
  sel.removeAllRanges(); sel.addRange(r);
})
