// What warm.js and floor.js share: one tab of Debian's Chromium (1280×720)
// with a remote-debugging port, as ../shared/peers/sidebyside.js opens it,
// showing URL after its load event and 300 ms more.
// PEERS: a copy of ../shared/peers with `npm install` run in it.
const path = require('path');
const net = require('net');
const { chromium } = require(path.join(process.env.PEERS || '/tmp/peers', 'node_modules', 'playwright-core'));

const median = a => { const s = [...a].sort((x, y) => x - y); return s[Math.floor(s.length / 2)]; };
const now = () => Number(process.hrtime.bigint() / 1000n) / 1000;
const freePort = () => new Promise(r => { const s = net.createServer(); s.listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => r(p)); }); });

// openTab returns {browser, page, port}.
async function openTab(url) {
  const port = await freePort();
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', `--remote-debugging-port=${port}`, '--remote-debugging-address=127.0.0.1'] });
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  await page.goto(url, { waitUntil: 'load', timeout: 60000 });
  await page.waitForTimeout(300);
  return { browser, page, port };
}

const CALL_TIMEOUT = 120000;

// server starts an MCP server attached to the browser at port and speaks
// JSON-RPC lines to it: bin is an axfuse binary (`mcp --cdp`), or the
// word playwright-mcp for Playwright MCP (PEERS' @playwright/mcp,
// --cdp-endpoint). Returns {child, call, notify, tool}.
function server(bin, port) {
  const { spawn } = require('child_process');
  const readline = require('readline');
  const child = bin === 'playwright-mcp'
    // (its cwd: Playwright MCP writes logs and snapshots under ./.playwright-mcp)
    ? spawn('node', [path.join(process.env.PEERS || '/tmp/peers', 'node_modules', '@playwright', 'mcp', 'cli.js'), '--cdp-endpoint', `http://127.0.0.1:${port}`], { stdio: ['pipe', 'pipe', 'ignore'], cwd: require('os').tmpdir() })
    : spawn(bin, ['mcp', '--cdp', `http://127.0.0.1:${port}`, '--max-tokens', '0'], { stdio: ['pipe', 'pipe', 'ignore'] });
  const rl = readline.createInterface({ input: child.stdout });
  const waiting = new Map(); let id = 0;
  rl.on('line', l => { try { const d = JSON.parse(l); if (d.id && waiting.has(d.id)) { waiting.get(d.id)(d); waiting.delete(d.id); } } catch { /* not a JSON-RPC message */ } });
  child.on('exit', () => { for (const [, r] of waiting) r({ error: { message: 'server exited' } }); waiting.clear(); });
  const call = (method, params) => new Promise(r => {
    const i = ++id;
    const timer = setTimeout(() => { if (waiting.has(i)) { waiting.delete(i); r({ error: { message: `no answer in ${CALL_TIMEOUT} ms` } }); } }, CALL_TIMEOUT);
    waiting.set(i, d => { clearTimeout(timer); r(d); });
    child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id: i, method, params }) + '\n');
  });
  const notify = method => child.stdin.write(JSON.stringify({ jsonrpc: '2.0', method }) + '\n');
  const tool = (name, args) => call('tools/call', { name, arguments: args });
  return { child, call, notify, tool, start: async (who) => {
    const r = await call('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: who || 'measure', version: '0' } });
    if (r.error) throw new Error(`initialize: ${JSON.stringify(r.error).slice(0, 200)}`);
    notify('notifications/initialized');
  } };
}

module.exports = { median, now, openTab, server };
