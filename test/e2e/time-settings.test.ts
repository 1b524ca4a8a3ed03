// In a real Chromium: the community's time settings. Times read in UTC, zone named, until an owner
// picks another zone and the 12-hour clock on Settings; from then on every time on every page is
// in that zone and clock, after a reload too; an unknown zone is refused in words.
import test from 'ava';
import type { Browser } from 'playwright-core';
import { checkPage, e2eWorld, launchBrowser, newPage, noScriptErrors, signInContext } from '../helpers/browser.ts';
import { password, setupOperator } from '../helpers/controller.ts';
import { call } from '../helpers/controller-http.ts';

let browser: Browser;
test.before(async () => {
  browser = await launchBrowser();
});
test.after.always(async () => {
  await browser?.close();
});

test('times show the zone and clock the community chose on Settings', async (t) => {
  const { env, base } = await e2eWorld(t);
  const owner = await setupOperator(env, 'owner');
  await call(env, owner, 'post', '/api/bans', { platformId: '76561198000000042', playerName: 'Rexx', durationMinutes: 600 });
  const { context, page } = await newPage(t, browser, base);
  await signInContext(context, 'owner', password);

  await page.goto('/bans');
  const until = page.getByRole('row').filter({ hasText: 'Rexx' }).locator('time').first();
  await until.waitFor();
  t.regex(await until.innerText(), /\d{2}:\d{2} UTC$/, 'UTC and 24 hours until chosen');

  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Settings' }).click();
  await page.getByLabel('Time zone').fill('Mars/Olympus_Mons');
  await page.getByRole('button', { name: 'Save' }).click();
  t.regex(await page.getByRole('alert').innerText(), /"Mars\/Olympus_Mons" is no time zone/);
  await page.getByLabel('Time zone').fill('Asia/Kolkata');
  await page.getByLabel('12-hour').check();
  t.regex(await page.getByTestId('time-sample').innerText(), /\d:\d{2}\s[AP]M GMT\+5:30$/, 'the sample reads as it will');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('status').filter({ hasText: 'Saved: times are shown in Asia/Kolkata, 12-hour.' }).waitFor();
  await checkPage(t, page, 'settings');

  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Bans' }).click();
  await until.waitFor();
  t.regex(await until.innerText(), /\d{1,2}:\d{2}\s[AP]M GMT\+5:30$/, 'at once, without a reload');
  t.is(await until.getAttribute('title'), 'Asia/Kolkata');
  const expires = Date.parse(((await call(env, owner, 'get', '/api/bans')).body.bans[0] as { expiresAt: string }).expiresAt);
  const local = new Date(expires + 5.5 * 3600_000);
  const hour12 = local.getUTCHours() % 12 || 12;
  t.true((await until.innerText()).includes(`${hour12}:${String(local.getUTCMinutes()).padStart(2, '0')}`), 'the wall time of Kolkata');
  await page.reload();
  await until.waitFor();
  t.regex(await until.innerText(), /GMT\+5:30$/, 'kept by the service');
  noScriptErrors(t, page);
});
