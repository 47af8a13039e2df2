// Click-to-answer time of two axfuse binaries side by side: one Chromium
// tab (tab.js), two warm `BIN mcp --cdp` servers attached to it, the same
// click targets clicked by each, interleaved. Not a test: a measurement for
// "before and after" notes, machine-dependent.
// usage: PEERS=/tmp/peers CLICKS=5 node scripts/measure/clicks.js URL BIN_BEFORE BIN_AFTER
// BIN_BEFORE may be the word playwright-mcp: Playwright MCP
// (PEERS/node_modules/@playwright/mcp, --cdp-endpoint) attached to the
// same browser, against axfuse mcp. NAV=N also picks up to N same-origin
// links that navigate (default 2).
// Targets come from the AFTER server's snapshot: button, clickable, tab,
// checkbox lines, and link lines whose /url is an in-page anchor (#...);
// [disabled] ones are skipped; up to CLICKS of them, spread over the page.
// Before every click Playwright loads URL afresh (load event + 300 ms),
// the clicking server takes an untimed browser_snapshot for its own refs
// (the target is found by its YAML line without [ref=], and which
// occurrence of that line it is), then browser_click {ref} is timed. The
// order alternates by round: before/after, after/before, ...
// Both servers attach to the one page tab (pickPage prefers the attached
// page; Playwright's is the only one, which is checked, and each snapshot
// must report URL). A target counts only when both servers found it.
// prints JSON: {url, before_ms, after_ms, ratio (of clicks neither side
//   failed, timed of them), clicks, timed, errors_before,
//   errors_after, missing, err_before, err_after, targets: [...]}
const { median, now, openTab, server } = require('./tab');
const [url, binBefore, binAfter] = process.argv.slice(2);
const K = +(process.env.CLICKS || 5);

const NAV = +(process.env.NAV || 2);



const failed = r => !!(r.error || (r.result && r.result.isError));
const text = r => r.result && r.result.content ? r.result.content.filter(c => c.type === 'text').map(c => c.text).join('\n') : '';
const brief = r => (r.error ? r.error.message : text(r)).replace(/\s+/g, ' ').slice(0, 200);

// lines parses a snapshot's YAML lines that carry a ref: {key, occ, ref,
// role, url, disabled}; key is the trimmed line without [ref=], occ which
// occurrence of that key it is.
function lines(snapshot) {
  const all = snapshot.split('\n');
  const seen = new Map(); const out = [];
  for (let i = 0; i < all.length; i++) {
    const m = all[i].match(/\[ref=([^\]\s]+)\]/);
    if (!m) continue;
    // The key is the role and the name only: the two servers' lines
    // differ in their other marks ([cursor=pointer], [active], ...).
    const line = all[i].replace(/\s*\[ref=[^\]\s]+\]/, '').trim();
    const km = line.match(/^-\s+['"]?([A-Za-z/_-]+)(?:\s+("(?:[^"\\]|\\.)*"))?/);
    const key = km ? `- ${km[1]}${km[2] ? ' ' + km[2] : ''}` : line;
    const occ = seen.get(key) || 0; seen.set(key, occ + 1);
    const body = key.replace(/^-\s+/, '').replace(/^['"]/, '');
    const role = (body.match(/^[A-Za-z/_-]+/) || [''])[0];
    const indent = all[i].match(/^ */)[0].length;
    let u = null;
    const next = all[i + 1] || '';
    const um = next.match(/^( *)- \/url: (.*)$/);
    if (um && um[1].length === indent + 2) u = um[2].trim().replace(/^'(.*)'$/, '$1').replace(/^"(.*)"$/, '$1');
    out.push({ key, occ, ref: m[1], role, name: km && km[2] ? km[2] : '', url: u, disabled: /\[disabled\]/.test(line) });
  }
  return out;
}

// inPage: an anchor in this document ("#..." or this URL with a fragment).
function inPage(u) {
  if (u == null) return false;
  if (u.startsWith('#')) return true;
  try { const a = new URL(u, url), b = new URL(url); return a.hash !== '' && a.origin + a.pathname + a.search === b.origin + b.pathname + b.search; } catch { return false; }
}

// navigates: a same-origin link to another document.
function navigates(u) {
  if (u == null || inPage(u)) return false;
  try { const a = new URL(u, url), b = new URL(url); return a.origin === b.origin && !/^(javascript|mailto):/.test(u); } catch { return false; }
}

const spread = (c, k) => c.length <= k ? c : Array.from({ length: k }, (_, i) => c[Math.floor(i * c.length / k)]);

function targets(snapshot, keep = () => true) {
  const all = lines(snapshot).filter(l => !l.disabled && keep(l));
  const c = all.filter(l => ['button', 'clickable', 'tab', 'checkbox'].includes(l.role) || (l.role === 'link' && inPage(l.url)));
  return [...spread(c, K), ...spread(all.filter(l => l.role === 'link' && navigates(l.url)), NAV).map(l => ({ ...l, nav: true }))];
}

(async () => {
  const { browser, port } = await openTab(url);
  const pages = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()).filter(t => t.type === 'page');
  if (pages.length !== 1) throw new Error(`want one page tab for both servers, the browser has ${pages.length}`);
  const bins = { before: binBefore, after: binAfter };
  const sv = { before: server(binBefore, port), after: server(binAfter, port) };
  const onTab = async (s, who) => { // an untimed snapshot of URL, checked to be Playwright's tab
    const r = await s.tool('browser_snapshot', {});
    const t = text(r);
    if (failed(r)) throw new Error(`${who} snapshot: ${brief(r)}`);
    const p = (t.match(/^(?:- )?Page(?: URL)?: (.*)$/m) || [])[1] || '';
    if (!p.includes(url)) throw new Error(`${who} is not on the tab Playwright navigates (Page: ${p.slice(0, 200)})`);
    return t;
  };
  // Each server loads URL afresh in its own tab (Playwright MCP may keep
  // one of its own), untimed, before each click.
  const fresh = async (s) => { await s.tool('browser_navigate', { url }); await new Promise(r => setTimeout(r, 300)); };
  for (const who of ['before', 'after']) {
    const s = sv[who];
    const r = await s.call('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'clicks', version: '0' } });
    if (r.error) throw new Error(`${who} initialize: ${brief(r)}`);
    s.notify('notifications/initialized');
  }
  // Targets come from the AFTER server's snapshot (Playwright's names
  // fewer elements: its tabs and clickable divs are unnamed).
  // Only elements both servers list (by role and name, else by name) are
  // compared: the same element clicked by each.
  await fresh(sv.before);
  const peer = lines(await onTab(sv.before, 'before')); // warm: both attached before the first click
  await fresh(sv.after);
  const both = l => peer.some(p => p.key === l.key) || (l.name && peer.some(p => p.name === l.name));
  const picked = targets(await onTab(sv.after, 'after'), both);
  const rows = []; let missing = 0; const firstErr = {};
  for (let i = 0; i < picked.length; i++) {
    const tg = picked[i]; const row = { line: tg.key.slice(0, 120), nav: !!tg.nav };
    for (const who of i % 2 ? ['after', 'before'] : ['before', 'after']) {
      await fresh(sv[who]);
      const all = lines(await onTab(sv[who], who));
      // Same role and name, else the same name (a tab here is its link
      // there); the same occurrence of it either way.
      let mine = all.filter(l => l.key === tg.key);
      if (mine.length <= tg.occ && tg.name) mine = all.filter(l => l.name === tg.name);
      if (mine.length <= tg.occ) { row[who + '_missing'] = true; continue; }
      const t = now();
      const r = await sv[who].tool('browser_click', { element: tg.key.slice(0, 80), [bins[who] === 'playwright-mcp' ? 'target' : 'ref']: mine[tg.occ].ref });
      row[who + '_ms'] = +(now() - t).toFixed(1);
      row[who + '_err'] = failed(r);
      if (failed(r)) row[who + '_why'] = brief(r).slice(0, 160);
      if (failed(r) && !firstErr[who]) firstErr[who] = brief(r);
    }
    if (row.before_missing || row.after_missing) missing++;
    rows.push(row);
  }
  for (const s of Object.values(sv)) s.child.kill();
  const ok = rows.filter(r => !r.before_missing && !r.after_missing);
  // Times only of clicks neither side failed: a refusal answers at once.
  const timed = ok.filter(r => !r.before_err && !r.after_err);
  const b = timed.length ? median(timed.map(r => r.before_ms)) : null, a = timed.length ? median(timed.map(r => r.after_ms)) : null;
  console.log(JSON.stringify({ url, before_ms: b, after_ms: a, ratio: timed.length ? +(a / b).toFixed(3) : null, clicks: ok.length, timed: timed.length,
    errors_before: ok.filter(r => r.before_err).length, errors_after: ok.filter(r => r.after_err).length, missing,
    err_before: firstErr.before || null, err_after: firstErr.after || null, targets: rows }));
  await browser.close().catch(() => {});
  process.exit(0);
})().catch(e => { console.error(String(e).slice(0, 500)); process.exit(1); });
