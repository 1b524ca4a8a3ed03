// In a real Chromium, the remaining main pages, each checked by axe-core and shot at 360 and 1280
// px: users and roles, chat-user roles, the audit log by action, and the network operator's
// communities, partner keys and trust moderation (evidence shown; approve, reject, overturn).
import test from 'ava';
import type { Browser } from 'playwright-core';
import { checkPage, e2eWorld, launchBrowser, newPage, noScriptErrors, settledTexts, signInContext } from '../helpers/browser.ts';
import { password, setupOperator, signIn, userWithRole } from '../helpers/controller.ts';
import { submit } from '../helpers/trust.ts';

let browser: Browser;
test.before(async () => {
  browser = await launchBrowser();
});
test.after.always(async () => {
  await browser?.close();
});

test('users, chat roles and the audit log of a community', async (t) => {
  const { env, base } = await e2eWorld(t);
  await setupOperator(env, 'owner');
  const { context, page } = await newPage(t, browser, base);
  await signInContext(context, 'owner', password);

  await page.goto('/users');
  const add = page.getByRole('region', { name: 'Add a user' });
  await add.getByLabel('Username').fill('mod-mira');
  await add.getByLabel('Password').fill('another long passphrase');
  await add.getByLabel('Role').selectOption('moderator');
  await add.getByRole('button', { name: 'Add user' }).click();
  await page.getByRole('status').filter({ hasText: 'mod-mira is added as moderator.' }).waitFor();
  await page.getByLabel('Role of mod-mira').selectOption('viewer');
  await page.getByRole('button', { name: 'Save role' }).click();
  await page.getByRole('status').filter({ hasText: 'mod-mira is now viewer' }).waitFor();
  await signIn(env, 'mod-mira', 'another long passphrase');
  await checkPage(t, page, 'users');

  await page.goto('/chat-roles');
  await page.getByLabel('Chat user id').fill('175928847299117063');
  await page.getByLabel('Role', { exact: true }).selectOption('moderator');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('row').filter({ hasText: '175928847299117063' }).getByText('moderator').waitFor();
  await checkPage(t, page, 'chat-roles');

  await page.goto('/audit');
  await page.getByRole('region', { name: 'Audit entries, newest first' }).waitFor();
  await page.getByLabel('Action').fill('user');
  await page.getByRole('button', { name: 'Filter' }).click();
  await page.getByRole('region', { name: 'Audit entries, newest first' }).getByText('user.update').waitFor();
  const auditActions = page.getByRole('region', { name: 'Audit entries, newest first' }).locator('tbody td:nth-child(3)');
  const userActions = ['User changed\nuser.update', 'User added\nuser.create'];
  t.deepEqual(await settledTexts(auditActions, userActions), userActions);
  await page.getByLabel('Action').fill('');
  await page.getByLabel('Actor').fill('mod-mira');
  await page.getByRole('button', { name: 'Filter' }).click();
  await page.getByRole('region', { name: 'Audit entries, newest first' }).getByText('auth.login').waitFor();
  t.deepEqual(await settledTexts(auditActions, ['Signed in\nauth.login']), ['Signed in\nauth.login']);
  await checkPage(t, page, 'audit');
  noScriptErrors(t, page);
});

test('the network operator: communities, partner keys, and moderation of the trust pool', async (t) => {
  const { env, base } = await e2eWorld(t);
  await setupOperator(env, 'operator');
  const moderator = await userWithRole(env, 'moderator');
  const pending = await submit(env, moderator, {
    platformId: '76561198000000101',
    category: 'exploiting',
    reason: 'duping through walls',
    evidence: ['https://example.org/clip-1'],
  });
  await submit(env, moderator, { platformId: '76561198000000102', category: 'griefing', reason: 'burning bases' });
  const { context, page } = await newPage(t, browser, base);
  await signInContext(context, 'operator', password);

  await page.goto('/network/accounts');
  const add = page.getByRole('region', { name: 'Add a community' });
  await add.getByLabel('Community name').fill('Livonia Friends');
  await add.getByLabel("Owner's username").fill('livonia-owner');
  await add.getByLabel("Owner's password").fill('livonia passphrase');
  await add.getByRole('button', { name: 'Add community' }).click();
  await page.getByRole('row').filter({ hasText: 'Livonia Friends' }).waitFor();
  await checkPage(t, page, 'accounts');

  await page.goto('/network/partner-keys');
  await page.getByLabel('Partner name').fill('Mirror Co');
  await page.getByLabel('Tier').selectOption('premium');
  await page.getByRole('button', { name: 'Issue key' }).click();
  t.regex(await page.getByTestId('secret-value').innerText(), /^svcp_/);
  await page.getByRole('row').filter({ hasText: 'Mirror Co' }).getByText('premium').waitFor();
  await checkPage(t, page, 'partner-keys');

  await page.goto('/trust');
  const row = page.getByRole('row').filter({ hasText: '76561198000000101' });
  t.regex(await row.innerText(), /Exploiting: duping through walls/);
  t.true(await row.getByRole('link', { name: 'https://example.org/clip-1' }).isVisible(), 'the evidence is linked');
  await checkPage(t, page, 'trust');
  await row.getByRole('button', { name: 'Approve' }).click();
  await row.getByRole('button', { name: 'Yes' }).click();
  await page.getByRole('status').filter({ hasText: 'is approved' }).waitFor();
  await page.getByRole('row').filter({ hasText: '76561198000000102' }).getByRole('button', { name: 'Reject' }).click();
  await page.getByRole('row').filter({ hasText: '76561198000000102' }).getByRole('button', { name: 'Yes' }).click();
  await page.getByRole('status').filter({ hasText: 'is rejected' }).waitFor();
  await page.getByLabel('Show').selectOption('active');
  const active = page.getByRole('row').filter({ hasText: '76561198000000101' });
  await active.getByRole('button', { name: 'Overturn' }).click();
  await active.getByRole('button', { name: 'Yes' }).click();
  await page.getByRole('status').filter({ hasText: 'is overturned' }).waitFor();
  const entry = (await env.deps.db.query<{ status: string }>('SELECT status FROM trust_entries WHERE id = $1', [pending.id])).rows[0]!;
  t.is(entry.status, 'overturned');
  noScriptErrors(t, page);
});
