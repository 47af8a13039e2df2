#!/usr/bin/env node
// A peer for `axfuse compare --peer`: Playwright's ai snapshot of one tab.
//
//   axfuse compare --cdp http://127.0.0.1:9222 \
//     --peer 'playwright=node scripts/peers/playwright-ai.cjs {cdp} {target}' URL
//
// It attaches to the browser at ENDPOINT (Playwright's connectOverCDP), finds
// the tab whose target id is TARGET, takes page.ariaSnapshot({mode: 'ai'}),
// and prints {snapshot, elements: [{ref, box}]}: the YAML and, for each of
// its refs, the element's box in viewport CSS px, by which axfuse measures
// the refs against the ground truth. It needs playwright-core
// (`npm install playwright-core`; NODE_PATH=that/node_modules when it lies
// elsewhere). axfuse itself never needs Node.
const { chromium } = require('playwright-core');

async function findPage(browser, target) {
  for (const context of browser.contexts()) {
    for (const page of context.pages()) {
      const session = await context.newCDPSession(page);
      const { targetInfo } = await session.send('Target.getTargetInfo');
      await session.detach();
      if (targetInfo.targetId === target) return page;
    }
  }
  throw new Error(`no tab with target id ${target}`);
}

async function main() {
  const [endpoint, target] = process.argv.slice(2);
  if (!endpoint || !target) {
    console.error('usage: playwright-ai.cjs ENDPOINT TARGET_ID');
    process.exit(2);
  }
  const browser = await chromium.connectOverCDP(endpoint);
  try {
    const page = await findPage(browser, target);
    const snapshot = await page.ariaSnapshot({ mode: 'ai' });
    const refs = [...new Set([...snapshot.matchAll(/\[ref=([^\]\s]+)\]/g)].map((m) => m[1]))];
    const elements = [];
    for (const ref of refs) {
      const box = await page.locator(`aria-ref=${ref}`).boundingBox({ timeout: 1000 }).catch(() => null);
      if (box) elements.push({ ref, box: [box.x, box.y, box.width, box.height] });
    }
    process.stdout.write(JSON.stringify({ snapshot, elements }));
  } finally {
    // Attached, not launched: this disconnects and leaves the tab open.
    await browser.close();
  }
}

main().catch((e) => {
  console.error(String((e && e.message) || e).split('\n')[0]);
  process.exit(1);
});
