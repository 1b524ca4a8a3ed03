// In a real Chromium: first-run setup, sign-out, a wrong password and a lockout said in words with
// the wait, and sign-in; the setup and sign-in pages at 360 and 1280 px, checked by axe-core.
import test from 'ava';
import type { Browser } from 'playwright-core';
import { checkPage, e2eWorld, launchBrowser, newPage, noScriptErrors } from '../helpers/browser.ts';
import { setupOperator } from '../helpers/controller.ts';

let browser: Browser;
test.before(async () => {
  browser = await launchBrowser();
});
test.after.always(async () => {
  await browser?.close();
});

const passphrase = 'a long passphrase for tests';

test('first-run setup, sign-out, a wrong password, then sign-in', async (t) => {
  const { base } = await e2eWorld(t);
  const { page } = await newPage(t, browser, base);
  await page.goto('/');
  await page.getByRole('heading', { level: 1, name: 'Set up the service' }).waitFor();
  await checkPage(t, page, 'setup');

  await page.getByLabel('Community name').fill('Chernarus Network');
  await page.getByLabel('Username').fill('admin');
  await page.getByLabel('Password', { exact: true }).fill(passphrase);
  await page.getByLabel('Password again').fill('a different passphrase');
  await page.getByRole('button', { name: 'Create and sign in' }).click();
  await page.getByRole('alert').filter({ hasText: 'The two passwords differ' }).waitFor();
  await page.getByLabel('Password again').fill(passphrase);
  await page.getByRole('button', { name: 'Create and sign in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Servers' }).waitFor();
  t.is(new URL(page.url()).pathname, '/servers');
  t.regex(await page.locator('.who').innerText(), /admin \(owner, Chernarus Network\)/);
  // The operator's owner sees the network pages.
  for (const name of ['Communities', 'Partner keys', 'Trust pool', 'API keys', 'Audit log']) {
    t.true(await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name }).isVisible(), name);
  }

  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
  // The session is gone on the service too, not just on the page.
  const after = await page.context().request.get('/api/auth/session');
  t.is(after.status(), 401);
  await checkPage(t, page, 'sign-in');

  await page.getByLabel('Username').fill('admin');
  await page.getByLabel('Password').fill('not the passphrase');
  await page.getByRole('button', { name: 'Sign in' }).click();
  t.is(await page.getByRole('alert').innerText(), 'Wrong username or password.');

  // The keyboard alone: the page's heading has the focus, Tab reaches each field, Enter signs in.
  await page.reload();
  await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
  await page.keyboard.press('Tab');
  t.is(await page.evaluate(() => document.activeElement?.getAttribute('autocomplete')), 'username');
  await page.keyboard.type('admin');
  await page.keyboard.press('Tab');
  await page.keyboard.type(passphrase);
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { level: 1, name: 'Servers' }).waitFor();
  t.false(await page.getByRole('alert').isVisible());
  // A skip link comes first and shows when focused; the focus is drawn visibly.
  await page.getByRole('link', { name: 'Servers' }).first().focus();
  // Back past Sign out, the player search (its Find button and field) and the brand.
  for (let i = 0; i < 5; i++) await page.keyboard.press('Shift+Tab');
  const focused = await page.evaluate(() => {
    const el = document.activeElement as HTMLElement;
    const style = getComputedStyle(el);
    return { text: el.textContent, top: el.getBoundingClientRect().top, outline: style.outlineStyle };
  });
  t.is(focused.text, 'Skip to the page');
  t.true(focused.top >= 0, 'the skip link is on screen when focused');
  t.is(focused.outline, 'solid', 'the focus is visible');
  noScriptErrors(t, page);
});

test('the sign-in page loads without a failed request or an error in the console', async (t) => {
  const { base, env } = await e2eWorld(t);
  await setupOperator(env);
  const { page } = await newPage(t, browser, base);
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
  });
  await page.goto('/');
  await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
  await page.waitForLoadState('networkidle');
  t.deepEqual(problems, []);
  noScriptErrors(t, page);
});

test('a lockout is said in words with its wait, and the button waits too', async (t) => {
  const { base, env } = await e2eWorld(t);
  await env.request.post('/api/setup/admin').send({ accountName: 'Ops', username: 'owner', password: passphrase });
  const { page } = await newPage(t, browser, base);
  await page.goto('/signin');
  await page.getByLabel('Username').fill('owner');
  for (let i = 0; i < 5; i++) {
    await page.getByLabel('Password').fill(`wrong guess ${i}`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'Wrong username or password.' }).waitFor();
  }
  await page.getByLabel('Password').fill(passphrase);
  await page.getByRole('button', { name: 'Sign in' }).click();
  const alert = page.getByRole('alert').filter({ hasText: 'Too many failed sign-ins' });
  await alert.waitFor();
  t.is(await alert.innerText(), 'Too many failed sign-ins for this username from your address. Try again in 1 minute.');
  t.true(await page.getByRole('button', { name: 'Sign in' }).isDisabled());
  t.regex(await page.getByText(/You can try again in/).innerText(), /You can try again in (1 minute|\d+ seconds)\./);
});
