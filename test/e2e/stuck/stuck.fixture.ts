// Not one of the suite's tests (the suite runs *.test.ts): the stuck end-to-end test that
// test/e2e/timeout.test.ts runs ava on. Chromium is launched and a page waits for ever on a server
// that never answers, as a real test stuck on a page would.
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../../helpers/chromium.ts';

let browser: Browser;
test.before(async () => {
  browser = await launchBrowser();
});
test.after.always(async () => {
  await browser?.close();
});

test('a page that never loads', async (t) => {
  const server = createServer(() => undefined).listen(0, '127.0.0.1');
  t.teardown(() => server.close());
  await new Promise((resolve) => server.once('listening', resolve));
  const page = await browser.newPage();
  writeFileSync(process.env.STUCK_READY_FILE!, String(process.pid));
  await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, { timeout: 0 });
  t.fail('the page loaded');
});
