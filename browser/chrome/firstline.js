// What the snapshot's computed styles do not show, for sight
// (firstline.go). They are the elements' own; the first line of a block
// may be painted otherwise by a ::first-line or ::first-letter rule
// (another colour, transparent, a shadow), and a visited link by a
// :visited rule (the browser never tells a page, nor the snapshot, which
// links are visited). Called in the isolated world with the document as
// this: it keeps up to max elements a first-line rule styles for the
// next call (takeFirstLinesJS) and returns {n, visited, visitedUnknown}:
// how many it kept, the colours :visited rules give (resolved where they
// are a var() of the root), and whether some :visited rule paints with
// what cannot be read as a colour. A style sheet it cannot read (another
// origin's) is skipped: its rules go unseen.
function (max) {
  const doc = this.nodeType === 9 ? this : this.ownerDocument;
  const out = new Set(), visited = new Set();
  let visitedUnknown = false;
  const PSEUDO = /::?first-l(ine|etter)\b/gi;
  // paints: the rule sets what decides whether glyphs show (a rule of
  // fonts or spacing alone is laid out, and the snapshot has that).
  const PAINT = /^(color|background|-webkit-text-fill-color|-webkit-text-stroke|text-shadow|opacity|filter|mix-blend-mode|fill|stroke)/;
  const paints = (style) => {
    for (let k = 0; k < style.length; k++) if (PAINT.test(style[k])) return true;
    return false;
  };
  const root = getComputedStyle(doc.documentElement);
  const resolve = (v) => v.replace(/var\(\s*(--[\w-]+)\s*(?:,\s*([^()]*))?\)/g, (m, name, dflt) => root.getPropertyValue(name).trim() || (dflt || '').trim() || m);
  const visitedRule = (r) => {
    for (let k = 0; k < r.style.length; k++) {
      const p = r.style[k];
      // A visited link takes colours alone from such a rule; of those,
      // its text's and its background's decide what shows.
      if (p === 'background-color') { visitedUnknown = true; continue; }
      if (p !== 'color' && p !== '-webkit-text-fill-color' && p !== 'fill') continue;
      let v = resolve(r.style.getPropertyValue(p).trim()).toLowerCase();
      // The keywords: the parent's colour ("inherit", which the snapshot
      // has), black, the browser's own visited purple.
      if (/^(inherit|unset|currentcolor)$/.test(v)) v = 'inherit';
      else if (v === 'initial') v = 'rgb(0, 0, 0)';
      else if (/^revert/.test(v)) v = 'rgb(85, 26, 139)';
      if (!v || /var\(/.test(v)) visitedUnknown = true; else visited.add(v);
    }
  };
  const visit = (rules, depth) => {
    if (!rules || depth > 8) return;
    for (const r of rules) {
      if (r.cssRules && !(r instanceof CSSStyleRule)) { visit(r.cssRules, depth + 1); continue; }
      const sel = r.selectorText;
      if (!sel || !r.style || !paints(r.style)) continue;
      if (/:visited/i.test(sel)) visitedRule(r);
      if (!/first-l(ine|etter)/i.test(sel) || out.size >= max) continue;
      for (const part of sel.split(',')) {
        if (!/first-l(ine|etter)/i.test(part)) continue;
        let found;
        try { found = doc.querySelectorAll(part.replace(PSEUDO, '').trim() || '*'); } catch (e) { continue; }
        for (const el of found) { if (out.size >= max) break; out.add(el); }
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
  return { n: out.size, visited: [...visited].slice(0, 16), visitedUnknown: visitedUnknown || visited.size > 16 };
}
