// TodoMVC's add, complete and filter steps, answered by Playwright MCP
// and by axfuse mcp side by side: one Chromium (tab.js), both servers
// attached to it, interleaved rounds (the order alternates). Each round a
// server loads URL afresh and snapshots (untimed), then, timed from this
// client: browser_type "Buy milk" with submit (add), browser_click on the
// new item's checkbox (complete), browser_click on the "Active" filter.
// Not a test: a measurement for notes, machine-dependent.
// usage: PEERS=/tmp/peers ROUNDS=5 node scripts/measure/todomvc.js URL AXFUSE_BIN
// prints JSON: {url, steps: {add, complete, filter: {pw_ms, ax_ms, ratio}}, errors}
const { median, now, openTab, server } = require('./tab');
const [url, bin] = process.argv.slice(2);
const ROUNDS = +(process.env.ROUNDS || 5);

const text = r => r.result && r.result.content ? r.result.content.filter(c => c.type === 'text').map(c => c.text).join('\n') : '';
const failed = r => !!(r.error || (r.result && r.result.isError));

// refOf finds the ref of the first line of role whose name matches re
// (or, for a checkbox, the first one under a listitem).
function refOf(snapshot, role, re) {
  for (const line of snapshot.split('\n')) {
    const m = line.match(/^\s*- (\w+)(?: "([^"]*)")?.*\[ref=([^\]\s]+)\]/);
    if (m && m[1] === role && (!re || re.test(m[2] || ''))) return m[3];
  }
  return null;
}

(async () => {
  const { browser, port } = await openTab(url);
  const sv = { pw: server('playwright-mcp', port), ax: server(bin, port) };
  const refKey = { pw: 'target', ax: 'ref' };
  for (const s of Object.values(sv)) await s.start('todomvc');
  const times = { add: { pw: [], ax: [] }, complete: { pw: [], ax: [] }, filter: { pw: [], ax: [] } };
  const errors = [];
  const step = async (who, name, tool, args) => {
    const t = now(); const r = await sv[who].tool(tool, args); const ms = now() - t;
    if (failed(r)) { errors.push(`${who} ${name}: ${text(r).slice(0, 160) || JSON.stringify(r.error)}`); return null; }
    times[name][who].push(ms);
    return r;
  };
  const snap = async (who) => text(await sv[who].tool('browser_snapshot', {}));
  for (let i = 0; i <= ROUNDS; i++) { // round 0 warms both up and is not kept
    for (const who of i % 2 ? ['ax', 'pw'] : ['pw', 'ax']) {
      await sv[who].tool('browser_navigate', { url });
      await new Promise(r => setTimeout(r, 300));
      const k = refKey[who];
      const field = refOf(await snap(who), 'textbox');
      if (!field) { errors.push(`${who}: no textbox`); continue; }
      await step(who, 'add', 'browser_type', { element: 'new todo', [k]: field, text: 'Buy milk', submit: true });
      const box = refOf(await snap(who), 'checkbox', /buy milk|toggle|^$/i);
      if (box) await step(who, 'complete', 'browser_click', { element: 'toggle', [k]: box });
      else errors.push(`${who}: no checkbox`);
      const active = refOf(await snap(who), 'link', /^active$/i);
      if (active) await step(who, 'filter', 'browser_click', { element: 'Active', [k]: active });
      else errors.push(`${who}: no Active link`);
    }
    if (i === 0) for (const s of Object.values(times)) { s.pw.length = 0; s.ax.length = 0; }
  }
  for (const s of Object.values(sv)) s.child.kill();
  const steps = {};
  for (const [name, t] of Object.entries(times)) {
    const pw = t.pw.length ? median(t.pw) : null, ax = t.ax.length ? median(t.ax) : null;
    steps[name] = { pw_ms: pw && +pw.toFixed(1), ax_ms: ax && +ax.toFixed(1), ratio: pw && ax ? +(ax / pw).toFixed(3) : null, n: Math.min(t.pw.length, t.ax.length) };
  }
  console.log(JSON.stringify({ url, steps, errors: errors.slice(0, 10) }));
  await browser.close().catch(() => {});
  process.exit(0);
})().catch(e => { console.error(String(e).slice(0, 500)); process.exit(1); });
