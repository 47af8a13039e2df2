// The floor under a whole process: on one tab of one browser, Playwright's
// ariaSnapshot({mode: 'ai'}) and whole processes (floor modes, and any
// axfuse binary: its `snapshot --cdp`), interleaved round by round (RUNS
// rounds after a warm-up; median of each), so that a page still settling
// weighs on all alike. Not a test: a measurement.
// usage: PEERS=/tmp/peers node scripts/measure/floor.js URL FLOOR_BIN AXFUSE_BIN...
// prints JSON: {url, pw_ms, ms: {"connect": …, "ax": …, "ax+dom": …, BIN: …}}
const { execFileSync } = require('child_process');
const { median, now, openTab } = require('./tab');
const [url, floorBin, ...bins] = process.argv.slice(2);
(async () => {
  const { browser, page, port } = await openTab(url);
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
