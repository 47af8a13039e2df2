// axfuse's --mode ax output in Puppeteer's SerializedAXNode shape, and
// Jest's toMatchObject/toEqual rules to hold it against Puppeteer's own
// expectations. Spelling differences that are by design are read as the
// same: ARIA role names for Chrome's (img / image, text / StaticText),
// /url as written for the resolved URL, an absent false state for false.
'use strict';
const snap = require('./snapshot');

const canonRole = {
  image: 'img', StaticText: 'text', DisclosureTriangle: 'button', LayoutTable: 'table', LayoutTableRow: 'row',
  LayoutTableCell: 'cell', MenuListOption: 'option', ListBoxOption: 'option', Iframe: 'iframe',
};
const canon = r => canonRole[r] || r;
const valueRoles = new Set(['textbox', 'searchbox', 'combobox', 'spinbutton', 'slider', 'progressbar', 'meter', 'scrollbar']);
const tokens = new Set(['invalid', 'autocomplete', 'haspopup', 'orientation', 'live', 'relevant', 'errormessage', 'details']);
const numeric = new Set(['level', 'valuemin', 'valuemax']);

// toPuppeteer turns a parsed YAML node into {role, name, ...}.
function toPuppeteer(node, base) {
  if (node.role === 'text') return { role: 'text', name: node.text };
  const out = { role: node.role, name: node.name || '' };
  for (const [k, v] of Object.entries(node.attrs)) {
    if (k === 'ref' || k === 'aria-hidden') continue;
    if (numeric.has(k)) out[k] = Number(v);
    else if (tokens.has(k)) out[k] = v; // Puppeteer keeps tokens as strings ("true")
    else if (v === 'true') out[k] = true;
    else if (v === 'false') out[k] = false;
    else if (k === 'checked' || k === 'pressed') out[k] = v; // mixed
    else out[k] = v;
  }
  for (const [k, v] of Object.entries(node.props)) {
    if (k === 'url') out.url = resolve(v, base);
    else out[k] = v;
  }
  let kids = node.children;
  if (kids.length && kids[0].role === 'text' && (valueRoles.has(node.role) || kids.length === 1 && node.inlineValue) && out.value === undefined) {
    out.value = kids[0].text;
    kids = kids.slice(1);
  }
  let children = kids.map(k => toPuppeteer(k, base));
  // the frame's document stands under its iframe, as Puppeteer nests it
  if (node.role === 'iframe') children = [{ role: 'RootWebArea', name: '', ...(children.length ? { children } : {}) }];
  if (children.length) out.children = children;
  return out;
}

function resolve(u, base) { try { return new URL(u, base).href; } catch { return u; } }

// tree is axfuse's whole --mode ax observation as Puppeteer's root.
function tree(out, base) {
  if (!out || typeof out.snapshot !== 'string') return null;
  const parsed = snap.parse(out.snapshot);
  const root = { role: 'RootWebArea', name: out.title || '' };
  const kids = parsed.children.filter(c => c.role !== 'note').map(c => toPuppeteer(c, base));
  if (kids.length) root.children = kids;
  return root;
}

// matchObject is toMatchObject: every stated key agrees; arrays agree
// element by element and in length.
function matchObject(got, want, path = '') {
  if (want === null || typeof want !== 'object') {
    return same(got, want) ? '' : `${path || 'value'}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`;
  }
  if (Array.isArray(want)) {
    got = mergeTexts(got); want = mergeTexts(want);
    if (!Array.isArray(got)) return `${path}: got ${JSON.stringify(got)}, want ${want.length} items`;
    if (got.length !== want.length) return `${path}: ${got.length} items, want ${want.length} (${got.map(g => g.role + ' ' + JSON.stringify(g.name)).join(', ')})`;
    for (let i = 0; i < want.length; i++) { const e = matchObject(got[i], want[i], `${path}[${i}]`); if (e) return e; }
    return '';
  }
  if (got === null || typeof got !== 'object') return `${path}: got ${JSON.stringify(got)}`;
  for (const [k, v] of Object.entries(want)) {
    if (v === undefined) continue;
    let g = got[k];
    if (k === 'role') { if (canon(g) !== canon(v)) return `${path}.role: got ${g}, want ${v}`; continue; }
    if (g === undefined && (v === false || v === '')) continue; // an absent false state
    if (k === 'children' && g === undefined) g = [];
    const e = matchObject(g, v, `${path}.${k}`);
    if (e) return e;
  }
  return '';
}

// mergeTexts joins adjacent text nodes, as both Playwright's and axfuse's
// lines do ("Hello" "World" read as "Hello World"); text names compare
// with their whitespace collapsed.
function mergeTexts(list) {
  if (!Array.isArray(list)) return list;
  const out = [];
  for (const n of list) {
    const last = out[out.length - 1];
    const isText = x => x && canon(x.role) === 'text' && !x.children;
    if (isText(n) && isText(last)) out[out.length - 1] = { ...last, name: ws(last.name + ' ' + n.name) };
    else out.push(isText(n) ? { ...n, name: ws(n.name) } : n);
  }
  return out;
}
const ws = s => String(s == null ? '' : s).replace(/\s+/g, ' ').trim();

function same(a, b) {
  if (typeof b === 'string' && /^https?:/.test(b) && typeof a === 'string') return a.replace(/\/$/, '') === b.replace(/\/$/, '');
  if (typeof b === 'number' && typeof a === 'string') return Number(a) === b;
  return a === b;
}

// equalObject is toEqual: matchObject both ways, false and '' reading as absent.
function equalObject(got, want) {
  const e = matchObject(got, want);
  if (e) return e;
  const extra = extraKeys(got, want);
  return extra ? 'extra ' + extra : '';
}

function extraKeys(got, want, path = '') {
  if (!got || typeof got !== 'object' || !want || typeof want !== 'object') return '';
  if (Array.isArray(got)) { for (let i = 0; i < got.length; i++) { const e = extraKeys(got[i], want[i], `${path}[${i}]`); if (e) return e; } return ''; }
  for (const [k, v] of Object.entries(got)) {
    if (v === false || v === '' || v === undefined) continue;
    if (!(k in want)) return `${path}.${k}=${JSON.stringify(v)}`;
    const e = extraKeys(v, want[k], `${path}.${k}`);
    if (e) return e;
  }
  return '';
}

// find returns the first node of t (depth first) that matches want, for
// expectations about a root element: axfuse has no root option, so the
// subtree is looked for in the whole tree.
function find(t, want) {
  if (!t) return null;
  if (!matchObject(t, want)) return t;
  for (const c of t.children || []) { const f = find(c, want); if (f) return f; }
  return null;
}

// anyAt: some node of t has the expected value at the path (axfuse has no
// root option, so the rooted node is looked for).
function anyAt(t, c) {
  if (!t) return false;
  const v = at(t, c.path);
  if (c.undefined ? v === undefined : same(v, c.expect)) return true;
  return (t.children || []).some(k => anyAt(k, c));
}

function at(t, path) {
  let v = t;
  for (const part of path.match(/[^.[\]]+/g) || []) { if (v == null) return undefined; v = v[part]; }
  return v;
}

function holds(c, t, rooted) {
  const o = c.options || {};
  switch (c.kind) {
    case 'null': return t === null ? '' : `got ${JSON.stringify(t).slice(0, 200)}`;
    case 'property': {
      if (rooted && o.root) return anyAt(t, c) ? '' : `no node has ${c.path} = ${JSON.stringify(c.expect)}`;
      const v = at(t, c.path);
      if (c.undefined) return v === undefined ? '' : `${c.path} = ${JSON.stringify(v)}`;
      return same(v, c.expect) ? '' : `${c.path} = ${JSON.stringify(v)}, want ${JSON.stringify(c.expect)}`;
    }
    case 'property-object': return matchObject(at(t, c.path), c.expect, c.path);
    case 'equal': return rooted && o.root ? (find(t, c.expect) ? '' : 'no subtree matches') : equalObject(t, c.expect);
    default: return rooted && o.root ? (find(t, c.expect) ? '' : 'no subtree matches') : matchObject(t, c.expect);
  }
}

// notComparable names what axfuse has no counterpart for.
function notComparable(c) {
  const o = c.options || {};
  if (o.interestingOnly === false) return 'axfuse prints no interestingOnly:false tree (the raw AX tree)';
  if (o.root && c.kind === 'null') return 'axfuse has no root option (a root with nothing interesting)';
  return '';
}

function judge(c, peerTree, out, base) {
  if (c.kind === 'object' && c.path) {
    c = { ...c, kind: 'property-object' };
  }
  const peerErr = holds(c, peerTree, false);
  let t = tree(out, base);
  const o = c.options || {};
  if (c.kind === 'property' && o.root) t = findRootFor(t, c);
  const axErr = out.error ? out.error : holds(c, t, true);
  return { id: c.id, comparable: true, peer: !peerErr, axfuse: !axErr, detail: axErr || '', peerDetail: peerErr || '' };
}

// findRootFor: for a property of a rooted snapshot, the subtree whose
// role is the expected root's (the first one).
function findRootFor(t, c) {
  const role = c.rootRole;
  if (!role) return t;
  const walk = n => { if (!n) return null; if (canon(n.role) === canon(role)) return n; for (const k of n.children || []) { const f = walk(k); if (f) return f; } return null; };
  return walk(t);
}

module.exports = { judge, tree, notComparable };
