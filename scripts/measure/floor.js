// The floor under a whole process: on one tab of one browser, Playwright's
// ariaSnapshot({mode: 'ai'}) and whole processes (floor modes, and any
// axfuse binary: its `snapshot --cdp`), interleaved round by round (RUNS
// rounds after a warm-up; median of each), so that a page still settling
// weighs on all alike. Not a test: a measurement.
// usage: PEERS=/tmp/peers node scripts/measure/floor.js URL FLOOR_BIN AXFUSE_BIN...
// prints JSON: {url, pw_ms, ms: {"connect": …, "ax": …, "ax+dom": …, BIN: …}}
const { chromium } = require(require('path').join(process.env.PEERS || '/tmp/peers', 'node_modules', 'playwright-core'));
const { execFileSync } = require('child_process');
const net = require('net');
const [url, floorBin, ...bins] = process.argv.slice(2);
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
  const cdp = `http://127.0.0.1:${port}`;
  const jobs = { connect: [floorBin, ['--cdp', cdp, 'connect']], ax: [floorBin, ['--cdp', cdp, 'ax']], 'ax+dom': [floorBin, ['--cdp', cdp, 'ax+dom']] };
  for (const b of bins) jobs[b] = [b, ['snapshot', '--cdp', cdp, '--format', 'json']];
  const times = { pw: [] }; for (const k in jobs) times[k] = [];
  const runs = +(process.env.RUNS || 5);
  for (let i = 0; i <= runs; i++) {
    let t = now(); await page.ariaSnapshot({ mode: 'ai' }); if (i) times.pw.push(now() - t);
    for (const [k, [bin, args]] of Object.entries(jobs)) {
      t = now(); execFileSync(bin, args, { maxBuffer: 1 << 30, timeout: 120000, stdio: ['ignore', 'ignore', 'ignore'] });
      if (i) times[k].push(now() - t);
    }
  }
  const ms = {}; for (const k in jobs) ms[k] = +median(times[k]).toFixed(1);
  console.log(JSON.stringify({ url, pw_ms: +median(times.pw).toFixed(1), ms }));
  await browser.close();
})().catch(e => { console.error(String(e).slice(0, 2000)); process.exit(1); });
