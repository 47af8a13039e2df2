// Two axfuse builds side by side: browser_snapshot of each, warm, on one
// tab of one browser, interleaved (RUNS rounds after a warm-up; median of
// each). For a change's before and after. Not a test: a measurement.
// usage: PEERS=/tmp/peers node scripts/measure/ab.js URL BEFORE_BIN AFTER_BIN
// prints JSON: {url, before_ms, after_ms, ratio, err}
const { median, now, openTab, server } = require('./tab');
const [url, before, after] = process.argv.slice(2);

(async () => {
  const { browser, port } = await openTab(url);
  const runs = +(process.env.RUNS || 9);
  const servers = [server(before, port), server(after, port)];
  for (const s of servers) await s.start('ab');
  const times = [[], []]; let err = null;
  for (let i = 0; i <= runs; i++) { // interleaved, first round a warm-up
    for (const k of i % 2 ? [1, 0] : [0, 1]) {
      const t = now(); const r = await servers[k].tool('browser_snapshot', {}); if (i) times[k].push(now() - t);
      if (r.error || (r.result && r.result.isError)) err = JSON.stringify(r).slice(0, 200);
    }
  }
  for (const s of servers) s.child.kill();
  const [b, a] = times.map(median);
  console.log(JSON.stringify({ url, before_ms: +b.toFixed(1), after_ms: +a.toFixed(1), ratio: +(a / b).toFixed(3), err }));
  await browser.close();
})().catch(e => { console.error(String(e).slice(0, 500)); process.exit(1); });
