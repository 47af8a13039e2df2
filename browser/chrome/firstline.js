// The elements a ::first-line rule styles, for sight (firstline.go). The
// snapshot's computed styles are the elements' own; the first line of a
// block may be painted otherwise (another colour, transparent, a shadow),
// which the model cannot see. Called on a document node in the isolated
// world; keeps up to max elements for the next call (takeFirstLinesJS)
// and returns how many. A style
// sheet it cannot read (another origin's) is skipped: its ::first-line
// rules go unseen.
function (max) {
  const doc = this.nodeType === 9 ? this : this.ownerDocument;
  const out = new Set();
  const PSEUDO = /::?first-l(ine|etter)\b/gi;
  // paints: the rule sets what decides whether glyphs show (a rule of
  // fonts or spacing alone is laid out, and the snapshot has that).
  const PAINT = /^(color|background|-webkit-text-fill-color|-webkit-text-stroke|text-shadow|opacity|filter|mix-blend-mode)/;
  const paints = (style) => {
    for (let k = 0; k < style.length; k++) if (PAINT.test(style[k])) return true;
    return false;
  };
  const visit = (rules, depth) => {
    if (!rules || depth > 8) return;
    for (const r of rules) {
      if (out.size >= max) return;
      if (r.cssRules && !(r instanceof CSSStyleRule)) { visit(r.cssRules, depth + 1); continue; }
      const sel = r.selectorText;
      if (!sel || !/first-l(ine|etter)/i.test(sel) || !paints(r.style)) continue;
      for (const part of sel.split(',')) {
        if (!/first-l(ine|etter)/i.test(part)) continue;
        let found;
        try { found = doc.querySelectorAll(part.replace(PSEUDO, '').trim() || '*'); } catch (e) { continue; }
        for (const el of found) { if (out.size >= max) return; out.add(el); }
      }
    }
  };
  const sheets = [...doc.styleSheets, ...(doc.adoptedStyleSheets || [])];
  for (const sheet of sheets) {
    let rules;
    try { rules = sheet.cssRules; } catch (e) { continue; }
    visit(rules, 0);
  }
  globalThis.__axfuseFirstLines = [...out];
  return out.size;
}
