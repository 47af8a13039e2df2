(async function (wait) {
  const f = this.localName === 'label' && this.control ? this.control : this;
  const a = f.ownerDocument.activeElement;
  const el = (a && (a === f || f.contains(a))) ? a : f;
  if (wait) await new Promise((done) => { requestAnimationFrame(() => setTimeout(done, 0)); setTimeout(done, 50); });
  const input = el.localName === 'input', area = el.localName === 'textarea';
  return {
    value: input || area ? el.value : (el.innerText || ''),
    editable: !input && !area,
    secret: input && el.type === 'password',
    keyed: input && el.selectionStart === null,
    type: input ? el.type : '',
    focus: el.ownerDocument.hasFocus(),
  };
})
