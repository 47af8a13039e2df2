// Side by side on one tab: the peers' own test expectations (restated as
// data in playwright-cases.json and puppeteer-cases.json) held against
// Playwright 1.65's ariaSnapshot(), puppeteer-core 24's
// accessibility.snapshot(), and axfuse's fused view and --mode ax.
//
// usage: NODE_PATH=/tmp/peers/node_modules node run.js AXFUSE_BIN [--suite playwright|puppeteer] [--only ID] [--verbose]
// prints one line per failing expectation and a JSON summary.
'use strict';
const { chromium } = require('playwright-core');
const puppeteer = require('puppeteer-core');
const { execFileSync, spawn } = require('child_process');
const http = require('http');
const net = require('net');
const path = require('path');
const fs = require('fs');
const snap = require('./snapshot');
const pp = require('./puppeteer');

const args = process.argv.slice(2);
const bin = args[0];
const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : '';
const verbose = args.includes('--verbose');
const suite = args.includes('--suite') ? args[args.indexOf('--suite') + 1] : ''; // playwright | puppeteer
const load = f => fs.existsSync(path.join(__dirname, f)) ? JSON.parse(fs.readFileSync(path.join(__dirname, f), 'utf8')) : [];
const pwCases = suite === 'puppeteer' ? [] : load('playwright-cases.json').filter(c => !only || c.id === only);
const ppCases = suite === 'playwright' ? [] : load('puppeteer-cases.json').filter(c => !only || c.id === only);

const freePort = () => new Promise(r => { const s = net.createServer(); s.listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => r(p)); }); });
const sleep = ms => new Promise(r => setTimeout(r, ms));

async function main() {
  const pages = new Map();
  const server = http.createServer((req, res) => {
    const html = pages.get(req.url.split('?')[0]);
    if (html === undefined) { res.writeHead(404); res.end(); return; }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html);
  });
  await new Promise(r => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${server.address().port}`;
  for (const c of pwCases) pages.set(`/${c.id}`, c.html);
  for (const c of ppCases) pages.set(`/${c.id}`, c.html);

  const port = await freePort();
  const chrome = spawn('/usr/bin/chromium', ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync', '--hide-scrollbars',
    `--remote-debugging-port=${port}`, '--remote-debugging-address=127.0.0.1', '--window-size=1280,720',
    `--user-data-dir=/tmp/vocab-profile-${process.pid}`, 'about:blank'], { stdio: 'ignore' });
  const endpoint = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) { try { await fetch(endpoint + '/json/version'); break; } catch { await sleep(100); } }
  const pwBrowser = await chromium.connectOverCDP(endpoint);
  const page = pwBrowser.contexts()[0].pages()[0];
  await page.setViewportSize({ width: 1280, height: 720 });
  const ppBrowser = await puppeteer.connect({ browserURL: endpoint, defaultViewport: null });
  const ppPage = (await ppBrowser.pages()).find(p => !p.url().startsWith('devtools'));

  const axfuse = extra => {
    try {
      return execFileSync(bin, ['snapshot', '--cdp', endpoint, '--format', 'json', ...extra], { timeout: 60000, maxBuffer: 1 << 28 }).toString();
    } catch (e) { return JSON.stringify({ error: String(e.stderr || e).split('\n')[0] }); }
  };
  const open = async c => {
    await page.goto(origin + '/' + c.id, { waitUntil: 'load' });
    if (c.script) await page.evaluate(`(async () => { ${c.script} })()`);
    await sleep(50);
  };

  const results = { playwright: [], puppeteer: [] };
  for (const c of pwCases) {
    if (!c.comparable) { results.playwright.push({ id: c.id, comparable: false, why: c.why }); continue; }
    await open(c);
    let peerText = '';
    try {
      const loc = page.locator(c.locator || 'body');
      peerText = c.suite === 'page-aria-snapshot-ai.spec.ts' ? await page.ariaSnapshot({ mode: 'ai' }) : await loc.ariaSnapshot();
    } catch (e) { peerText = 'ERROR ' + e.message.split('\n')[0]; }
    const out = JSON.parse(axfuse([]));
    const axText = out.snapshot || '';
    const r = judgePlaywright(c, peerText, axText);
    results.playwright.push(r);
    if (verbose || (!r.axfuse && r.peer)) report(c, r, peerText, axText);
  }
  for (const c of ppCases) {
    const why = pp.notComparable(c);
    if (why) { c.comparable = false; c.why = why; }
    if (!c.comparable) { results.puppeteer.push({ id: c.id, comparable: false, why: c.why }); continue; }
    await open(c);
    let peerTree = null;
    try {
      const o = c.options || {};
      const opts = { interestingOnly: o.interestingOnly !== false, includeIframes: !!o.includeIframes };
      if (o.root) opts.root = await ppPage.$(o.root);
      peerTree = await ppPage.accessibility.snapshot(opts);
    } catch (e) { peerTree = { error: e.message }; }
    const out = JSON.parse(axfuse(['--mode', 'ax']));
    const r = pp.judge(c, peerTree, out, origin + '/' + c.id);
    results.puppeteer.push(r);
    if (verbose || (!r.axfuse && r.peer)) {
      console.log(`--- ${c.id} ${c.test}: axfuse ${r.axfuse ? 'holds' : 'FAILS'} (${r.detail || ''})`);
      if (verbose || !r.axfuse) console.log('axfuse:\n' + (out.snapshot || out.error) + 'expected: ' + JSON.stringify(c.expect));
    }
  }
  await ppBrowser.disconnect();
  await pwBrowser.close().catch(() => {});
  chrome.kill();
  server.close();
  console.log(JSON.stringify(summary(results), null, 1));
}

function report(c, r, peerText, axText) {
  console.log(`--- ${c.id} [${c.suite} / ${c.test}] ${c.kind}${c.negative ? ' (negative)' : ''}: peer ${r.peer ? 'holds' : 'FAILS'}, axfuse ${r.axfuse ? 'holds' : 'FAILS'}`);
  console.log('expected:\n' + c.expect.replace(/^/gm, '  '));
  console.log('axfuse:\n' + axText.replace(/^/gm, '  '));
  if (!r.peer || verbose) console.log('playwright:\n' + peerText.replace(/^/gm, '  '));
}

// judgePlaywright holds one expectation against both outputs. Every kind is
// judged as a template (toMatchAriaSnapshot: what test templates and agents
// rely on); an equality expectation is also checked for the same tree.
function judgePlaywright(c, peerText, axText) {
  const want = snap.normalize(snap.parse(c.expect));
  const holds = text => {
    const got = snap.normalize(snap.parse(text));
    const m = snap.matchesTree(got, want);
    return c.negative ? !m : m;
  };
  const same = text => snap.render(snap.normalize(snap.parse(text))) === snap.render(want);
  const r = { id: c.id, comparable: true, peer: holds(peerText), axfuse: holds(axText) };
  if (c.kind === 'equal' && !c.negative) {
    r.peerSame = same(peerText);
    r.axfuseSame = same(axText);
    r.axfuseSamePeer = snap.render(snap.normalize(snap.parse(axText))) === snap.render(snap.normalize(snap.parse(peerText)));
  }
  return r;
}

function summary(results) {
  const s = {};
  for (const [k, list] of Object.entries(results)) {
    const comp = list.filter(r => r.comparable);
    const valid = comp.filter(r => r.peer);
    s[k] = {
      records: list.length, comparable: comp.length, peer_holds: valid.length,
      axfuse_holds: valid.filter(r => r.axfuse).length,
      axfuse_share: valid.length ? +(valid.filter(r => r.axfuse).length / valid.length).toFixed(3) : null,
      axfuse_fails: valid.filter(r => !r.axfuse).map(r => r.id),
      peer_fails: comp.filter(r => !r.peer).map(r => r.id),
    };
    const eq = valid.filter(r => r.axfuseSame !== undefined);
    if (eq.length) {
      s[k].equal_records = eq.length;
      s[k].axfuse_same_tree_as_expected = eq.filter(r => r.axfuseSame).length;
      s[k].axfuse_same_tree_as_peer = eq.filter(r => r.axfuseSamePeer).length;
    }
  }
  return s;
}

main().catch(e => { console.error(e); process.exit(1); });
