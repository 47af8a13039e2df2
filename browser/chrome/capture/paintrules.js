// What the snapshot's computed styles do not show, for sight
// (paintrules.go). They are the elements' own; the first line of a block
// may be painted otherwise by a ::first-line or ::first-letter rule
// (another colour, transparent, a shadow), and a visited link by the
// rules that match it once visited (the browser never tells a page, nor
// the snapshot, which links are visited: computed styles are the
// unvisited ones). Called in the isolated world (paintRules), it
// returns [text, elements]: elements are up to maxFirst elements
// a first-line rule styles, then up to maxLinks links whose colours
// change once visited; text is the JSON of {first, visited, links,
// visitedUnknown}: how many elements are first-line ones, the colours
// :visited rules give (resolved where they are a var() of the root), for
// each link the indexes of its colours in that list (-1: a colour that
// cannot be read, or one a :link rule gave that is lost once visited),
// and whether every link must be taken as unknown (a rule too tangled to
// match, or too many links). A style sheet it cannot read (another
// origin's) is skipped: its rules go unseen.
function paintRules({ maxFirst, maxLinks }) {
  const doc = document;
  const first = new Set(), colours = [], styled = new Map();
  let unknown = false;
  // A rule's selector is read before its style: most rules are neither
  // first-line nor link rules, and a selector is cheap to test.
  const FIRST = /first-l(ine|etter)/i, LINKY = /:(visited|link)(?![\w-])/i;
  const PSEUDO = /::?first-l(ine|etter)\b/gi;
  // paints: the rule sets what decides whether glyphs show (a rule of
  // fonts or spacing alone is laid out, and the snapshot has that).
  const PAINT = /^(color|background|-webkit-text-fill-color|-webkit-text-stroke|text-shadow|opacity|filter|mix-blend-mode|fill|stroke)/;
  const paints = (style) => {
    for (let k = 0; k < style.length; k++) if (PAINT.test(style[k])) return true;
    return false;
  };
  // A visited link takes colours alone from the rules that match it once
  // visited (and loses those of :link rules); of them its text's and its
  // background's decide what shows.
  const TEXT = ['color', '-webkit-text-fill-color', 'fill'];
  const OTHER = ['background-color', '-webkit-text-stroke-color', 'stroke'];
  const root = getComputedStyle(doc.documentElement);
  const resolve = (v) => v.replace(/var\(\s*(--[\w-]+)\s*(?:,\s*([^()]*))?\)/g, (m, name, dflt) => root.getPropertyValue(name).trim() || (dflt || '').trim() || m);
  // norm writes a colour as computed styles do (rgb() or rgba()), read
  // by a canvas (named colours, hex); what it cannot read stays as is.
  let paint;
  const norm = (v) => {
    try {
      paint = paint || new OffscreenCanvas(1, 1).getContext('2d');
      paint.fillStyle = '#010203';
      paint.fillStyle = v;
      let out = paint.fillStyle;
      if (out === '#010203') { paint.fillStyle = '#040506'; paint.fillStyle = v; if (paint.fillStyle === '#040506') return v; out = paint.fillStyle; }
      const hex = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(out);
      return hex ? 'rgb(' + hex.slice(1).map(h => parseInt(h, 16)).join(', ') + ')' : out;
    } catch (e) { return v; }
  };
  const colourIndex = (v) => {
    let k = colours.indexOf(v);
    if (k < 0 && colours.length < 16) k = colours.push(v) - 1;
    return k;
  };
  // The colour indexes a rule gives a visited link (-1: unreadable);
  // none when it sets no colour that matters.
  const ruleColours = (style) => {
    const out = [];
    for (const p of OTHER) if (style.getPropertyValue(p)) out.push(-1);
    for (const p of TEXT) {
      let v = style.getPropertyValue(p).trim();
      if (!v) continue;
      v = resolve(v).toLowerCase();
      // The keywords: the parent's colour ("inherit", which the snapshot
      // has), black, the browser's own visited purple.
      if (/^(inherit|unset|currentcolor)$/.test(v)) v = 'inherit';
      else if (v === 'initial') v = 'rgb(0, 0, 0)';
      else if (/^revert/.test(v)) v = 'rgb(85, 26, 139)';
      out.push(!v || /var\(/.test(v) ? -1 : colourIndex(v === 'inherit' ? v : norm(v)));
    }
    return out;
  };
  // split reads a selector list: its parts (at top-level commas), each
  // as written (raw) and with :visited and :link made :any-link (sel: to
  // find the links it may match either way), and whether it had either;
  // "negated" when one stands inside :not() or :has(), whose sets the
  // swap turns around.
  const split = (text) => {
    const parts = [], stack = [];
    let raw = '', sel = '', quote = '', visited = false, link = false, negated = false;
    for (let k = 0; k < text.length; k++) {
      let ch = text[k];
      if (ch === '\\') ch += text[++k] || '';
      else if (quote) { if (ch === quote) quote = ''; }
      else if (ch === '"' || ch === "'") quote = ch;
      else if (ch === '(') stack.push(/:(not|has)$/i.test(sel));
      else if (ch === ')') stack.pop();
      else if (ch === ',' && stack.length === 0) {
        parts.push({ raw, sel, visited, link });
        raw = sel = ''; visited = link = false;
        continue;
      } else if (ch === ':') {
        const m = /^:(visited|link)(?![\w-])/i.exec(text.slice(k, k + 9));
        if (m) {
          if (stack.some(Boolean)) negated = true;
          if (m[1].toLowerCase() === 'visited') visited = true; else link = true;
          raw += m[0]; sel += ':any-link';
          k += m[0].length - 1;
          continue;
        }
      }
      raw += ch; sel += ch;
    }
    parts.push({ raw, sel, visited, link });
    return { parts, negated };
  };
  // nest: a nested rule's selector, its parent's put where & stands (or
  // in front, as the relative selector it is).
  const nest = (sel, parent) => {
    if (!parent) return sel;
    return split(sel).parts.map(p => p.raw.includes('&') ? p.raw.split('&').join(':is(' + parent + ')') : ':is(' + parent + ') ' + p.raw).join(', ');
  };
  // specificity of one complex selector, as [ids, classes, types]:
  // :where() counts nothing, :is(), :not() and :has() their most
  // specific argument, :nth-child(… of S) one more than S.
  const specificity = (sel) => {
    const n = [0, 0, 0];
    const add = (m) => { n[0] += m[0]; n[1] += m[1]; n[2] += m[2]; };
    const most = (list) => split(list).parts.map(p => specificity(p.sel)).reduce((a, b) => (cmp(a, b) >= 0 ? a : b), [0, 0, 0]);
    const ident = (k) => { while (k < sel.length && /[\w\-\u0080-\uffff\\]/.test(sel[k])) k += sel[k] === '\\' ? 2 : 1; return k; };
    const group = (k) => { // k at '(': the index after its ')'
      let depth = 0, quote = '';
      for (; k < sel.length; k++) {
        const ch = sel[k];
        if (ch === '\\') { k++; continue; }
        if (quote) { if (ch === quote) quote = ''; continue; }
        if (ch === '"' || ch === "'") quote = ch;
        else if (ch === '(' || ch === '[') depth++;
        else if ((ch === ')' || ch === ']') && --depth === 0) return k + 1;
      }
      return k;
    };
    for (let k = 0; k < sel.length;) {
      const ch = sel[k];
      if (ch === '#') { n[0]++; k = ident(k + 1); }
      else if (ch === '.') { n[1]++; k = ident(k + 1); }
      else if (ch === '[') { n[1]++; k = group(k); }
      else if (ch === ':' && sel[k + 1] === ':') { n[2]++; k = ident(k + 2); if (sel[k] === '(') k = group(k); }
      else if (ch === ':') {
        const end = ident(k + 1), name = sel.slice(k + 1, end).toLowerCase();
        k = end;
        const arg = sel[k] === '(' ? sel.slice(k + 1, (k = group(k)) - 1) : null;
        if (/^(before|after|first-line|first-letter)$/.test(name)) n[2]++;
        else if (name === 'where') { /* counts nothing */ }
        else if (arg !== null && /^(is|not|has|matches|-webkit-any)$/.test(name)) add(most(arg));
        else if (arg !== null && /^nth-(last-)?child$/.test(name) && /\sof\s/i.test(arg)) { n[1]++; add(most(arg.slice(arg.search(/\sof\s/i) + 4))); }
        else n[1]++;
      } else if (/[\w\-\u0080-\uffff\\]/.test(ch)) { n[2]++; k = ident(k); }
      else k++;
    }
    return n;
  };
  const cmp = (a, b) => {
    for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) return a[k] - b[k];
    return 0;
  };
  const give = (link, ks) => {
    let s = styled.get(link);
    if (!s) {
      if (styled.size >= maxLinks) { unknown = true; return; }
      styled.set(link, s = new Set());
    }
    for (const k of ks) s.add(k);
  };
  // The rules naming :visited or :link, read first and matched once all
  // are known: a :link rule's colour goes once its link is visited, and
  // what comes instead is known only where a :visited rule that matches
  // the same element outranks it in the cascade (then that rule's colour
  // is among the link's); elsewhere another rule, unseen, may win.
  const linkRules = [];
  let order = 0, layered = false;
  const linkRule = (sel, style) => {
    order++;
    const { parts, negated } = split(sel);
    if (negated) { unknown = true; return; }
    const props = TEXT.concat(OTHER).filter(p => style.getPropertyValue(p));
    if (props.length) linkRules.push({ parts, style, props, order });
  };
  // The cascade's rank of a rule's declaration: !important, then the
  // selector's specificity, then its place.
  const rank = (rule, part, prop) => [rule.style.getPropertyPriority(prop) === 'important' ? 1 : 0, ...specificity(part.sel), rule.order];
  const matchLinks = () => {
    const best = (map, m, prop, r) => {
      let e = map.get(m);
      if (!e) map.set(m, e = {});
      if (!e[prop] || cmp(r, e[prop]) > 0) e[prop] = r;
    };
    const visitedBest = new Map(), linkBest = new Map();
    for (const rule of linkRules) {
      const ks = ruleColours(rule.style);
      for (const part of rule.parts) {
        if (!part.visited && !part.link) continue;
        for (const m of doc.querySelectorAll(part.sel)) {
          const l = m.closest(':any-link');
          if (!l) continue;
          if (part.visited) give(l, ks);
          for (const prop of rule.props) best(part.visited ? visitedBest : linkBest, m, prop, rank(rule, part, prop));
        }
      }
    }
    for (const [m, props] of linkBest) {
      const v = visitedBest.get(m) || {};
      for (const prop in props) {
        if (layered || !v[prop] || cmp(v[prop], props[prop]) < 0) { give(m.closest(':any-link'), [-1]); break; }
      }
    }
  };
  const firstLineRule = (sel) => {
    for (const part of split(sel).parts) {
      if (!FIRST.test(part.sel) || first.size >= maxFirst) continue;
      let found;
      try { found = doc.querySelectorAll(part.sel.replace(PSEUDO, '').trim() || '*'); } catch (e) { continue; }
      for (const el of found) { if (first.size >= maxFirst) break; first.add(el); }
    }
  };
  const visit = (rules, depth, parent) => {
    if (!rules || depth > 8) return;
    for (const r of rules) {
      if (unknown && first.size >= maxFirst) return;
      const own = r.selectorText;
      if (own === undefined) { // not a style rule: a group, an import, a layer…
        if (r.styleSheet) { // @import: its sheet's rules come first
          if (r.layerName != null) layered = true;
          try { visit(r.styleSheet.cssRules, depth + 1, ''); } catch (e) { /* another origin's: unseen */ }
          continue;
        }
        // Layers and scopes rank rules otherwise than their order says.
        if (r.layerName != null || r.nameList || /^CSSScope/.test(r.constructor.name)) layered = true;
        if (parent && r.style) ruleOf(parent, r.style); // bare declarations nested in a rule are its own
        if (r.cssRules) visit(r.cssRules, depth + 1, parent);
        continue;
      }
      const sel = parent ? nest(own, parent) : own;
      if (sel.includes(':')) ruleOf(sel, null, r);
      const kids = r.cssRules;
      if (kids && kids.length) visit(kids, depth + 1, sel);
    }
  };
  // ruleOf reads a rule whose selector (sel) may name :visited, :link,
  // ::first-line or ::first-letter; its style is read only then.
  const ruleOf = (sel, style, r) => {
    const firstLine = FIRST.test(sel), linky = LINKY.test(sel);
    if (!firstLine && !linky) return;
    style = style || r.style;
    if (!style || !paints(style)) return;
    if (linky && !unknown) linkRule(sel, style);
    if (firstLine) firstLineRule(sel);
  };
  for (const sheet of [...doc.styleSheets, ...(doc.adoptedStyleSheets || [])]) {
    let rules;
    try { rules = sheet.cssRules; } catch (e) { continue; }
    if (sheet.ownerRule && sheet.ownerRule.layerName != null) layered = true;
    visit(rules, 0, '');
  }
  if (!unknown) {
    try { matchLinks(); } catch (e) { unknown = true; }
  }
  // Each element once (a repeated one would be serialized as a bare
  // reference): links name theirs by index.
  const els = [...first], at = new Map(els.map((el, k) => [el, k]));
  const links = [];
  for (const [l, ks] of unknown ? [] : styled) {
    if (!at.has(l)) at.set(l, els.push(l) - 1);
    links.push([at.get(l), ...ks]);
  }
  const text = JSON.stringify({ first: first.size, visited: colours, visitedUnknown: unknown, links });
  return [text, els];
}
