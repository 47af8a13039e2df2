(function (want) {
  const sel = this.localName === 'label' && this.control ? this.control : this;
  const shown = (e) => { const cs = getComputedStyle(e); return !e.hidden && cs.display !== 'none' && cs.visibility !== 'hidden' && cs.visibility !== 'collapse'; };
  const all = [...sel.options];
  const opts = all.filter((o) => shown(o) && (o.parentElement === sel || o.parentElement.localName !== 'optgroup' || shown(o.parentElement)));
  const match = (list) => list.find((o) => o.label.trim() === want || o.value === want) || list.find((o) => o.label.trim().toLowerCase() === want.trim().toLowerCase());
  const o = match(opts);
  if (!o && match(all)) return 'option ' + JSON.stringify(want.slice(0, 80)) + ' is hidden: no one sees it in the list';
  if (!o) return 'no option ' + JSON.stringify(want.slice(0, 80)) + '; options are ' + JSON.stringify(opts.slice(0, 30).map((o) => o.label.trim().slice(0, 40)));
  if (o.disabled) return 'option ' + JSON.stringify(o.label.trim().slice(0, 80)) + ' is disabled';
  o.selected = true;
  sel.dispatchEvent(new Event('input', { bubbles: true }));
  sel.dispatchEvent(new Event('change', { bubbles: true }));
  return '';
})
