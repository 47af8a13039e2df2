// Like with like: Playwright's ariaSnapshot({mode: 'ai'}) and axfuse mcp's
// browser_snapshot, both warm, on one tab of one browser, interleaved
// (RUNS rounds after a warm-up; median of each). Not a test: a measurement,
// next to ../shared/peers/sidebyside.js (which times a whole axfuse process).
// usage: PEERS=/tmp/peers node scripts/measure/warm.js URL AXFUSE_BIN
// (PEERS: a copy of ../shared/peers with `npm install` run in it)
// prints JSON: {url, pw_ms, mcp_ms, ratio, err}
const { spawn } = require('child_process');
const readline = require('readline');
const { median, now, openTab } = require('./tab');
const [url, bin] = process.argv.slice(2);
(async () => {
  const { browser, page, port } = await openTab(url);
  const runs = +(process.env.RUNS || 5);
  const child = spawn(bin, ['mcp', '--cdp', `http://127.0.0.1:${port}`, '--max-tokens', '0'], { stdio: ['pipe', 'pipe', 'ignore'] });
  const rl = readline.createInterface({ input: child.stdout });
  const waiting = new Map(); let id = 0;
  rl.on('line', l => { try { const d = JSON.parse(l); if (d.id && waiting.has(d.id)) { waiting.get(d.id)(d); waiting.delete(d.id); } } catch (e) {} });
  const call = (method, params) => new Promise(r => { const i = ++id; waiting.set(i, r); child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id: i, method, params }) + '\n'); });
  await call('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'warm', version: '0' } });
  child.stdin.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
  const pwT = [], axT = []; let err = null;
  for (let i = 0; i <= runs; i++) { // interleaved, first round a warm-up
    let t = now(); await page.ariaSnapshot({ mode: 'ai' }); if (i) pwT.push(now() - t);
    t = now(); const r = await call('tools/call', { name: 'browser_snapshot', arguments: {} }); if (i) axT.push(now() - t);
    if (r.error || (r.result && r.result.isError)) err = JSON.stringify(r).slice(0, 200);
  }
  child.kill();
  const pw = median(pwT), ax = median(axT);
  console.log(JSON.stringify({ url, pw_ms: +pw.toFixed(1), mcp_ms: +ax.toFixed(1), ratio: +(ax / pw).toFixed(3), err }));
  await browser.close();
})().catch(e => { console.error(String(e).slice(0, 500)); process.exit(1); });
