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

module.exports = { median, now, openTab };
