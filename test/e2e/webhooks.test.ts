// In a real Chromium, Webhooks: a standard endpoint added (its secret shown once, not back after a
// reload), a test event sent and its delivery listed, paused with the reason shown and resumed,
// removed; a Discord endpoint's role to mention; an endpoint the service paused after 24 hours of
// failures told above every other page; the page is offered to servers.manage only. The receiver listens on 127.0.0.1
// (WEBHOOK_ALLOW_PRIVATE=1).
import test from 'ava';
import type { Browser } from 'playwright-core';
import { deliverWebhooks } from '../../src/webhooks/delivery.ts';
import { pauseEndpoint } from '../../src/webhooks/outbox.repo.ts';
import { checkPage, e2eWorld, launchBrowser, newPage, noScriptErrors, signInContext } from '../helpers/browser.ts';
import { password, userWithRole } from '../helpers/controller.ts';
import { receiver } from '../helpers/webhook-receiver.ts';

let browser: Browser;
test.before(async () => {
  browser = await launchBrowser();
});
test.after.always(async () => {
  await browser?.close();
});

test('webhooks: added with its secret shown once, tested, its delivery listed, paused and resumed, removed', async (t) => {
  const { env, base } = await e2eWorld(t, { WEBHOOK_ALLOW_PRIVATE: '1' });
  const owner = await userWithRole(env, 'owner');
  const r = await receiver(t);
  const { context, page } = await newPage(t, browser, base);
  await signInContext(context, owner.username, password);

  await page.goto('/webhooks');
  await page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
  await page.getByRole('region', { name: 'Webhooks of your community' }).getByText('No webhooks yet.').waitFor();
  const add = page.getByRole('region', { name: 'Add a webhook' });
  await add.getByLabel('URL').fill(r.url);
  await add.getByLabel('Standard Webhooks: signed JSON, for your own service').check();
  await add.getByLabel('Bans', { exact: true }).check();
  await add.getByRole('button', { name: 'Add webhook' }).click();
  const secret = await page.locator('.secret').getByTestId('secret-value').innerText();
  t.regex(secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
  await page.getByRole('button', { name: 'I have copied it' }).click();
  const row = page.getByRole('row').filter({ hasText: new URL(r.url).origin });
  await row.getByText('Active').waitFor();
  t.regex(await row.innerText(), /Kills \(the killfeed\), Bans/);

  await row.getByRole('button', { name: 'Send a test' }).click();
  await page.getByText('A test event waits for').waitFor();
  await deliverWebhooks(env.deps);
  t.is(r.received.length, 1);
  t.is(JSON.parse(r.received[0]!.body).type, 'webhook.test');
  // The deliveries were opened by the test; shown again after a reload, they list the delivery.
  await page.reload();
  await row.getByRole('button', { name: 'Deliveries' }).click();
  await page.getByRole('region', { name: 'Last deliveries' }).getByText('delivered (204)').waitFor();
  t.false((await page.content()).includes(secret), 'the secret is not back after a reload');
  await checkPage(t, page, 'webhooks');

  await row.getByRole('button', { name: 'Pause' }).click();
  await row.getByText('paused by hand').waitFor();
  await row.getByRole('button', { name: 'Resume' }).click();
  await row.getByText('Active').waitFor();

  await row.getByRole('button', { name: 'Remove' }).click();
  await page
    .getByRole('group', { name: /Remove/ })
    .getByRole('button', { name: 'Yes' })
    .click();
  await page.getByText('No webhooks yet.').waitFor();
  noScriptErrors(t, page);
});

test('a Discord endpoint with a role to mention; an endpoint paused after 24 h of failures is told on every page', async (t) => {
  const { env, base } = await e2eWorld(t, { WEBHOOK_ALLOW_PRIVATE: '1' });
  const owner = await userWithRole(env, 'owner');
  const r = await receiver(t, '/api/webhooks/1/token');
  const { context, page } = await newPage(t, browser, base);
  await signInContext(context, owner.username, password);

  await page.goto('/webhooks');
  const add = page.getByRole('region', { name: 'Add a webhook' });
  await add.getByLabel('URL').fill(r.url);
  await add.getByLabel('Watched player joins').check();
  await add.getByLabel('Role to mention (optional)').fill('112233445566778899');
  await add.getByRole('button', { name: 'Add webhook' }).click();
  const row = page.getByRole('row').filter({ hasText: new URL(r.url).origin });
  await row.getByText('Mentions the role 112233445566778899 when a watched player joins').waitFor();
  t.regex(await row.innerText(), /Kills \(the killfeed\), Watched player joins/);
  t.is(await page.getByRole('complementary', { name: 'Paused webhooks' }).count(), 0);
  await row.getByRole('button', { name: 'Role to mention' }).click();
  const roleForm = page.getByRole('form', { name: /Role to mention of/ });
  await roleForm.getByLabel('Discord role id').fill('998877665544332211');
  await roleForm.getByRole('button', { name: 'Save the role' }).click();
  await row.getByText('Mentions the role 998877665544332211 when a watched player joins').waitFor();
  await row.getByRole('button', { name: 'Role to mention' }).click();
  await page
    .getByRole('form', { name: /Role to mention of/ })
    .getByLabel('Discord role id')
    .fill('');
  await page
    .getByRole('form', { name: /Role to mention of/ })
    .getByRole('button', { name: 'Save the role' })
    .click();
  await page.getByText(/mentions no one\./).waitFor();
  // The notice comes before the list is read again: the row loses its mention once it is.
  await row.getByText(/Mentions the role/).waitFor({ state: 'detached' });
  t.is(await row.getByText(/Mentions the role/).count(), 0);

  const { rows } = await env.deps.db.query<{ id: string }>('SELECT id FROM webhook_endpoints');
  await pauseEndpoint(env.deps.db, rows[0]!.id, new Date(env.clock.now()).toISOString(), 'deliveries failed for 24 hours; last: HTTP 500');
  await page.goto('/servers');
  const alert = page.getByRole('complementary', { name: 'Paused webhooks' });
  await alert.getByText(/A webhook was paused after 24 hours of failed deliveries/).waitFor();
  await checkPage(t, page, 'servers-paused-webhook');
  await alert.getByRole('link', { name: 'Open the webhooks' }).click();
  await row.getByText('Paused after failures').waitFor();
  t.is(await page.getByRole('complementary', { name: 'Paused webhooks' }).count(), 0, 'not on the webhooks page itself');
  await row.getByRole('button', { name: 'Resume' }).click();
  await row.getByText('Active').waitFor();
  await page.goto('/servers');
  await page.getByRole('heading', { level: 1, name: 'Servers' }).waitFor();
  t.is(await page.getByRole('complementary', { name: 'Paused webhooks' }).count(), 0, 'gone once resumed');
  noScriptErrors(t, page);
});

test('the page is offered to servers.manage only', async (t) => {
  const { env, base } = await e2eWorld(t);
  const moderator = await userWithRole(env, 'moderator');
  const { context, page } = await newPage(t, browser, base);
  await signInContext(context, moderator.username, password);
  await page.goto('/webhooks');
  await page.getByText('Your role cannot open this page.').waitFor();
  t.is(await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Webhooks' }).count(), 0);
});
