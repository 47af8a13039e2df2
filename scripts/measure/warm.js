// Like with like: Playwright's ariaSnapshot({mode: 'ai'}) and axfuse mcp's
// browser_snapshot, both warm, on one tab of one browser, interleaved
// (RUNS rounds after a warm-up; median of each). Not a test: a measurement,
// next to ../shared/peers/sidebyside.js (which times a whole axfuse process).
// usage: PEERS=/tmp/peers node scripts/measure/warm.js URL AXFUSE_BIN
// (PEERS: a copy of ../shared/peers with `npm install` run in it)
// prints JSON: {url, pw_ms, mcp_ms, ratio, err}
const { chromium } = require(require('path').join(process.env.PEERS || '/tmp/peers', 'node_modules', 'playwright-core'));
const { spawn } = require('child_process');
const net = require('net'); const readline = require('readline');
const [url, bin] = process.argv.slice(2);
const median = a => { const s = [...a].sort((x, y) => x - y); return s[Math.floor(s.length / 2)]; };
const freePort = () => new Promise(r => { const s = net.createServer(); s.listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => r(p)); }); });
const now = () => Number(process.hrtime.bigint() / 1000n) / 1000;
(async () => {
  const port = await freePort();
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', `--remote-debugging-port=${port}`, '--remote-debugging-address=127.0.0.1'] });
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  await page.goto(url, { waitUntil: 'load', timeout: 60000 });
  await page.waitForTimeout(300);
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
