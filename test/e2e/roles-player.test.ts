// In a real Chromium: a viewer sees the pages of its role and no button it cannot use; the public
// player page of a banned player (an approved pool entry), without signing in: score, band,
// reasons, the reporting community and category, how to appeal, and nothing of who or why.
import test from 'ava';
import type { Browser, Page } from 'playwright-core';
import { checkPage, e2eWorld, launchBrowser, newPage, noScriptErrors, signInContext } from '../helpers/browser.ts';
import { call } from '../helpers/controller-http.ts';
import { password, setupOperator, userWithRole } from '../helpers/controller.ts';
import { decide, secretNote, submit } from '../helpers/trust.ts';

let browser: Browser;
test.before(async () => {
  browser = await launchBrowser();
});
test.after.always(async () => {
  await browser?.close();
});

const buttons = (page: Page) => page.getByRole('button').allInnerTexts();

test('a viewer sees its pages and no button it cannot use', async (t) => {
  const { env, base } = await e2eWorld(t);
  const owner = await setupOperator(env, 'owner');
  const server = (await call(env, owner, 'post', '/api/servers', { name: 'Chernarus #1' })).body.server as { id: string };
  await call(env, owner, 'post', '/api/bans', { platformId: '76561198000000042', playerName: 'Rexx', reason: 'aimbot' });
  await call(env, owner, 'post', '/api/priority-queue', { platformId: '76561198000000077', playerName: 'Vera', durationDays: 30 });
  const viewer = await userWithRole(env, 'viewer', owner.accountId);
  const { context, page } = await newPage(t, browser, base);
  await signInContext(context, viewer.username, password);

  await page.goto('/servers');
  await page.getByRole('link', { name: 'Chernarus #1' }).waitFor();
  t.deepEqual(await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link').allInnerTexts(), [
    'Servers',
    'Bans',
    'Priority queue',
  ]);
  t.deepEqual(await buttons(page), ['Find', 'Sign out']);
  t.false(await page.getByRole('heading', { name: 'Add a server' }).isVisible());

  await page.goto('/bans');
  await page.getByRole('row').filter({ hasText: 'Rexx' }).waitFor();
  t.deepEqual(await buttons(page), ['Find', 'Sign out', 'Search', 'Previous page', 'Next page']);
  t.false(await page.getByRole('heading', { name: 'Ban a player' }).isVisible());

  await page.goto('/queue');
  await page.getByRole('row').filter({ hasText: 'Vera' }).waitFor();
  t.deepEqual(await buttons(page), ['Find', 'Sign out', 'Search', 'Previous page', 'Next page']);

  await page.goto(`/servers/${server.id}`);
  await page.getByRole('heading', { name: 'Killfeed' }).waitFor();
  await page.getByRole('region', { name: 'Kills, newest first' }).waitFor();
  await page.getByRole('region', { name: /^Ranking by points/ }).waitFor();
  t.deepEqual(await buttons(page), ['Find', 'Sign out', 'Previous page', 'Next page']);

  for (const path of ['/users', '/account/api-keys', '/audit', '/network/accounts']) {
    await page.goto(path);
    await page.getByText('Your role cannot open this page.').waitFor();
  }
  // The service refuses what the page does not offer (the page is a convenience, not the guard).
  const csrf = (await context.cookies()).find((c) => c.name === 'csrf-token')!.value;
  t.is(
    (await context.request.post('/api/bans', { data: { platformId: '76561198000000043' }, headers: { 'X-CSRF-Token': csrf } })).status(),
    403,
  );
  t.is(
    (await context.request.post('/api/bans', { data: { platformId: '76561198000000043' } })).status(),
    403,
    'no CSRF token: refused as well',
  );
  noScriptErrors(t, page);
});

test('the public player page of a banned player: score, band, reasons, community and category, how to appeal', async (t) => {
  const { env, base } = await e2eWorld(t);
  const operator = await setupOperator(env, 'operator');
  const moderator = await userWithRole(env, 'moderator');
  const community = (await env.deps.db.query<{ name: string }>('SELECT name FROM accounts WHERE id = $1', [moderator.accountId])).rows[0]!
    .name;
  const cheater = '76561198000000099';
  const ban = (await call(env, moderator, 'post', '/api/bans', { platformId: cheater, reason: 'REASON-TEXT-aimbot' })).body as {
    id: string;
  };
  const entry = await submit(env, moderator, { banId: ban.id, category: 'cheating', reason: 'REASON-TEXT-aimbot through walls' });
  await decide(env, operator, String(entry.id), 'approve');

  const { page } = await newPage(t, browser, base);
  await page.goto(`/p/${cheater}`);
  await page.getByRole('heading', { level: 1, name: `Player ${cheater}` }).waitFor();
  await page.getByRole('heading', { name: 'Trust score' }).waitFor();
  const text = await page.locator('main').innerText();
  t.regex(text, /Trust score\s+24\s+out of 100\s+\/ 100\s+High risk/);
  t.regex(text, /Communities of the network have banned this player/);
  t.regex(text, /Banned for cheating by 1 community \(permanent\): -26 points/);
  const row = page
    .getByRole('region', { name: /Reports in the network's ban pool/ })
    .getByRole('row')
    .filter({ hasText: community });
  t.regex(await row.innerText(), /Cheating\s+Approved by a network moderator and in force/);
  t.true(await page.getByRole('heading', { name: 'How to appeal' }).isVisible());
  for (const secret of ['REASON-TEXT', secretNote, moderator.username, moderator.userId])
    t.false(text.includes(secret), `the page shows nothing of ${secret}`);
  await checkPage(t, page, 'player');

  await page.goto('/p/76561198000000998');
  t.regex(await page.getByRole('alert').innerText(), /^The network does not know this player/);
  await page.getByLabel('Player id').fill('not an id');
  await page.getByRole('button', { name: 'Look up' }).click();
  await page.waitForURL(/\/p\/not%20an%20id$/);
  t.regex(await page.getByRole('alert').innerText(), /^This is not a player id the network understands/);
  noScriptErrors(t, page);
});
