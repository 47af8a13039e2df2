// Aria-snapshot YAML as a tree, and Playwright's template matching over it,
// so axfuse's output and Playwright's can be held against the same
// expectations. Only the subset of YAML the two tools print is read.
'use strict';

// parse turns snapshot text into a list of nodes:
// {role, name, nameRe, attrs, props, children}; text children are
// {role: 'text', text}.
function parse(text) {
  const lines = text.replace(/\r/g, '').split('\n');
  const root = { role: 'fragment', attrs: {}, props: {}, children: [] };
  const stack = [{ indent: -1, node: root }];
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i];
    if (!raw.trim()) continue;
    const m = /^(\s*)- (.*)$/.exec(raw);
    if (!m) continue; // a continuation of a block scalar is read with its owner
    const indent = m[1].length;
    let body = m[2];
    while (stack.length > 1 && stack[stack.length - 1].indent >= indent) stack.pop();
    const parent = stack[stack.length - 1].node;
    let { key, rest } = splitKey(body);
    let value = null, opensList = false;
    if (rest !== null) {
      rest = rest.trim();
      if (rest === '') opensList = true;
      else if (rest === '|' || rest === '>' || rest === '|-' || rest === '>-') {
        const parts = [];
        while (i + 1 < lines.length && (lines[i + 1].trim() === '' || leading(lines[i + 1]) > indent)) parts.push(lines[++i].trim());
        value = parts.join(' ').trim();
      } else value = scalar(rest);
    }
    if (key.startsWith('/')) { // a prop of the parent: /url, /placeholder, /value, /children
      parent.props[key.slice(1)] = value === null ? '' : value;
      continue;
    }
    if (key === 'text' && value !== null) { parent.children.push({ role: 'text', text: value }); continue; }
    const node = parseKey(key);
    if (value !== null && value !== '') node.children.push(textNode(value));
    parent.children.push(node);
    if (opensList) stack.push({ indent, node });
  }
  return root;
}

function leading(s) { return s.length - s.trimStart().length; }

function textNode(v) {
  if (typeof v === 'string' && /^\/.*\/$/.test(v) && v.length > 1) {
    try { return { role: 'text', textRe: new RegExp(v.slice(1, -1)) }; } catch { /* a bad regex reads as a string */ }
  }
  return { role: 'text', text: String(v) };
}

// splitKey separates `key: value` (key may be single-quoted).
function splitKey(body) {
  let key, after;
  if (body.startsWith("'")) {
    let j = 1, s = '';
    for (; j < body.length; j++) {
      if (body[j] === "'" && body[j + 1] === "'") { s += "'"; j++; continue; }
      if (body[j] === "'") break;
      s += body[j];
    }
    key = s; after = body.slice(j + 1);
    if (after.startsWith(':')) return { key, rest: after.slice(1) };
    return { key, rest: null };
  }
  // the key ends at the first ': ' or trailing ':' outside a quoted name or regex
  let inQ = false, inRe = false;
  for (let j = 0; j < body.length; j++) {
    const c = body[j];
    if (inQ) { if (c === '\\') j++; else if (c === '"') inQ = false; continue; }
    if (inRe) { if (c === '\\') j++; else if (c === '/') inRe = false; continue; }
    if (c === '"') { inQ = true; continue; }
    if (c === '/' && j > 0 && body[j - 1] === ' ') { inRe = true; continue; }
    if (c === ':' && (j === body.length - 1 || body[j + 1] === ' ')) return { key: body.slice(0, j), rest: body.slice(j + 1) };
  }
  return { key: body, rest: null };
}

function scalar(s) {
  if (s.startsWith('"')) { try { return JSON.parse(s); } catch { return s.slice(1, -1); } }
  if (s.startsWith("'")) return s.slice(1, -1).replace(/''/g, "'");
  return s;
}

// parseKey reads `role "name" [attr] [attr=v]` or `role /re/ [...]`.
function parseKey(key) {
  const node = { role: '', attrs: {}, props: {}, children: [] };
  let s = key.trim();
  const r = /^[^\s"/[]+/.exec(s);
  node.role = r ? r[0] : '';
  s = s.slice(node.role.length).trim();
  if (s.startsWith('"')) {
    let j = 1;
    for (; j < s.length; j++) { if (s[j] === '\\') { j++; continue; } if (s[j] === '"') break; }
    try { node.name = JSON.parse(s.slice(0, j + 1)); } catch { node.name = s.slice(1, j); }
    s = s.slice(j + 1).trim();
  } else if (s.startsWith('/')) {
    let j = 1;
    for (; j < s.length; j++) { if (s[j] === '\\') { j++; continue; } if (s[j] === '/') break; }
    try { node.nameRe = new RegExp(s.slice(1, j)); } catch { node.name = s.slice(0, j + 1); } // a bad regex reads as a string
    s = s.slice(j + 1).trim();
  }
  for (const a of s.matchAll(/\[([^\]=]+)(?:=([^\]]*))?\]/g)) node.attrs[a[1]] = a[2] === undefined ? 'true' : a[2];
  return node;
}

// normalize drops what is not vocabulary: refs, focus and cursor marks,
// axfuse's notes; generics without a name are spliced out (Playwright's
// default mode prints none; ai mode prints them as wrappers).
function normalize(node) {
  const out = [];
  for (const c of node.children) {
    if (c.role === 'note') continue;
    if (c.role === 'text') { out.push(c); continue; }
    for (const a of ['ref', 'active', 'cursor', 'box']) delete c.attrs[a];
    normalize(c);
    if (c.role === 'generic' && c.name === undefined && !c.nameRe && Object.keys(c.attrs).length === 0) out.push(...c.children);
    else out.push(c);
  }
  node.children = mergeText(out);
  return node;
}

function mergeText(children) {
  const out = [];
  for (const c of children) {
    const last = out[out.length - 1];
    if (c.role === 'text' && last && last.role === 'text' && c.text !== undefined && last.text !== undefined) last.text = ws(last.text + ' ' + c.text);
    else out.push(c.role === 'text' && c.text !== undefined ? { role: 'text', text: ws(c.text) } : c);
  }
  return out;
}

const ws = s => String(s).replace(/\s+/g, ' ').trim();

const boolAttrs = new Set(['checked', 'disabled', 'expanded', 'pressed', 'selected', 'invalid']);

function attrMatches(name, want, got) {
  if (boolAttrs.has(name) && want === 'false') return got === undefined || got === 'false';
  return got === want || (want === 'true' && got === '') ;
}

// matchesNode is Playwright's template rule: role, name and every stated
// attribute and prop agree; the template's children occur in order.
function matchesNode(got, want) {
  if (want.role === 'text') {
    if (got.role !== 'text') return false;
    return want.textRe ? want.textRe.test(got.text) : ws(got.text) === ws(want.text);
  }
  if (got.role !== want.role) return false;
  if (want.name !== undefined && ws(got.name || '') !== ws(want.name)) return false;
  if (want.nameRe && !want.nameRe.test(got.name || '')) return false;
  for (const [k, v] of Object.entries(want.attrs)) if (!attrMatches(k, v, got.attrs[k])) return false;
  for (const [k, v] of Object.entries(want.props)) {
    if (k === 'children') continue;
    const g = got.props[k];
    if (g === undefined) return false;
    if (!propMatches(g, v)) return false;
  }
  const mode = want.props.children;
  if (mode === 'equal' || mode === 'deep-equal') {
    if (got.children.length !== want.children.length) return false;
    return want.children.every((w, i) => matchesNode(got.children[i], w));
  }
  return containsList(got.children, want.children);
}

function propMatches(got, want) {
  if (/^\/.*\/$/.test(want) && want.length > 1) {
    try { return new RegExp(want.slice(1, -1)).test(got); } catch { /* a bad regex reads as a string */ }
  }
  return ws(got) === ws(want);
}

function containsList(got, want) {
  let i = 0;
  for (const w of want) {
    while (i < got.length && !matchesNode(got[i], w)) i++;
    if (i === got.length) return false;
    i++;
  }
  return true;
}

// matchesTree: the template's top list is contained in the children of
// some node of the received tree.
function matchesTree(got, want) {
  if (containsList(got.children, want.children)) return true;
  return got.children.some(c => c.role !== 'text' && matchesTree(c, want));
}

// render prints a normalized tree back in one canonical form, for equality.
function render(node, depth = 0) {
  let out = '';
  for (const c of node.children) {
    const pad = '  '.repeat(depth);
    if (c.role === 'text') { out += `${pad}- text: ${c.text}\n`; continue; }
    let key = c.role;
    if (c.name !== undefined && c.name !== '') key += ' ' + JSON.stringify(ws(c.name));
    for (const [k, v] of Object.entries(c.attrs)) key += v === 'true' ? ` [${k}]` : ` [${k}=${v}]`;
    const props = Object.entries(c.props);
    if (!props.length && c.children.length === 1 && c.children[0].role === 'text') { out += `${pad}- ${key}: ${c.children[0].text}\n`; continue; }
    out += `${pad}- ${key}${props.length || c.children.length ? ':' : ''}\n`;
    for (const [k, v] of props) out += `${pad}  - /${k}: ${v}\n`;
    out += render(c, depth + 1);
  }
  return out;
}

module.exports = { parse, normalize, matchesTree, render };
