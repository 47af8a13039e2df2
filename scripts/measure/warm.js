// Like with like: Playwright's ariaSnapshot({mode: 'ai'}) and axfuse mcp's
// browser_snapshot, both warm, on one tab of one browser, interleaved
// (RUNS rounds after a warm-up; median of each). Not a test: a measurement,
// next to ../shared/peers/sidebyside.js (which times a whole axfuse process).
// usage: PEERS=/tmp/peers node scripts/measure/warm.js URL AXFUSE_BIN
// (PEERS: a copy of ../shared/peers with `npm install` run in it)
// PEER=playwright-mcp times Playwright MCP's browser_snapshot instead of
// the in-process ariaSnapshot (both servers attached to the one browser,
// each loads URL once, untimed, before the rounds).
// prints JSON: {url, pw_ms, mcp_ms, ratio, err}
const { median, now, openTab, server } = require('./tab');
const [url, bin] = process.argv.slice(2);
const kill = [];

(async () => {
  const { browser, page, port } = await openTab(url);
  const runs = +(process.env.RUNS || 5);
  const axs = server(bin, port);
  await axs.start('warm');
  const { call, child } = axs;
  let pwSnap = () => page.ariaSnapshot({ mode: 'ai' });
  if (process.env.PEER === 'playwright-mcp') {
    const pw = server('playwright-mcp', port);
    await pw.start('warm');
    await pw.call('tools/call', { name: 'browser_navigate', arguments: { url } });
    pwSnap = async () => { const r = await pw.call('tools/call', { name: 'browser_snapshot', arguments: {} }); if (r.error || (r.result && r.result.isError)) throw new Error(JSON.stringify(r).slice(0, 200)); };
    kill.push(pw.child);
  }
  const pwT = [], axT = []; let err = null;
  for (let i = 0; i <= runs; i++) { // interleaved, first round a warm-up
    let t = now(); await pwSnap(); if (i) pwT.push(now() - t);
    t = now(); const r = await call('tools/call', { name: 'browser_snapshot', arguments: {} }); if (i) axT.push(now() - t);
    if (r.error || (r.result && r.result.isError)) err = JSON.stringify(r).slice(0, 200);
  }
  child.kill(); for (const k of kill) k.kill();
  const pw = median(pwT), ax = median(axT);
  console.log(JSON.stringify({ url, pw_ms: +pw.toFixed(1), mcp_ms: +ax.toFixed(1), ratio: +(ax / pw).toFixed(3), err }));
  await browser.close();
})().catch(e => { console.error(String(e).slice(0, 500)); process.exit(1); });
