// In a real Chromium: the API key and partner key pages tell the tiers and limits the service is
// configured with (GET /api/limits), not numbers of the dashboard's own.
import test from 'ava';
import type { Browser, Page } from 'playwright-core';
import { e2eWorld, launchBrowser, newPage, noScriptErrors, signInContext } from '../helpers/browser.ts';
import { password, setupOperator, userWithRole } from '../helpers/controller.ts';

let browser: Browser;
test.before(async () => {
  browser = await launchBrowser();
});
test.after.always(async () => {
  await browser?.close();
});

const optionTexts = (page: Page) => page.getByLabel('Tier').locator('option').allInnerTexts();

test('the key pages show the configured tiers: requests a minute and the largest page', async (t) => {
  const { env, base } = await e2eWorld(t, {
    RATE_DATA_STANDARD: '45',
    RATE_DATA_PARTNER: '900',
    RATE_EXPORT_BASIC: '30',
    RATE_EXPORT_PREMIUM: '240',
  });
  await setupOperator(env, 'operator');
  const { context, page } = await newPage(t, browser, base);
  await signInContext(context, 'operator', password);

  await page.goto('/account/api-keys');
  await page.getByText('Standard keys may make 45 requests a minute, partner keys 900.').waitFor();
  await page.getByLabel('Tier').locator('option', { hasText: '45 a minute' }).waitFor({ state: 'attached' });
  t.deepEqual(await optionTexts(page), ['Standard (45 a minute, 100 a page)', 'Partner (900 a minute, 500 a page)']);

  await page.goto('/network/partner-keys');
  await page.getByLabel('Tier').locator('option', { hasText: '30 pages a minute' }).waitFor({ state: 'attached' });
  t.deepEqual(await optionTexts(page), ['Basic (30 pages a minute, up to 500 rows)', 'Premium (240 pages a minute, up to 1000 rows)']);
  noScriptErrors(t, page);
});

test("a community's owner is offered the standard tier alone, with the configured limit", async (t) => {
  const { env, base } = await e2eWorld(t, { RATE_DATA_STANDARD: '75' });
  await setupOperator(env, 'operator');
  const owner = await userWithRole(env, 'owner');
  const { context, page } = await newPage(t, browser, base);
  await signInContext(context, owner.username, password);
  await page.goto('/account/api-keys');
  await page.getByText('Standard keys may make 75 requests a minute, partner keys 600.').waitFor();
  t.deepEqual(await optionTexts(page), ['Standard (75 a minute, 100 a page)']);
  noScriptErrors(t, page);
});
