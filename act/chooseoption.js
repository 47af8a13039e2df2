(function () {
  const sel = this.closest('select');
  if (!sel) return 'is an option outside any <select>';
  if (sel.matches(':disabled') || this.disabled) return 'is disabled';
  const shown = (e) => { const cs = getComputedStyle(e); return !e.hidden && cs.display !== 'none' && cs.visibility !== 'hidden' && cs.visibility !== 'collapse'; };
  if (!shown(this) || (this.parentElement.localName === 'optgroup' && !shown(this.parentElement))) return 'is hidden: no one sees it in the list';
  this.selected = true;
  sel.dispatchEvent(new Event('input', { bubbles: true }));
  sel.dispatchEvent(new Event('change', { bubbles: true }));
  return '';
})
