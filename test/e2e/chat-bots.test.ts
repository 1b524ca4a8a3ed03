// In a real Chromium, Chat bots and roles: a bot added shows its secret once (copied, dismissed, not
// back after a reload) and that secret signs a call that runs; a rotation shows a new secret while
// the old one keeps working (24 hours); a removed bot's calls are refused; the community's "refuse
// unsigned calls" switch refuses unsigned calls and allows them again; users.manage only.
import { createHmac } from 'node:crypto';
import test from 'ava';
import type { Browser } from 'playwright-core';
import { registerServer } from '../../src/servers/server.ts';
import { checkPage, e2eWorld, launchBrowser, newPage, noScriptErrors, signInContext } from '../helpers/browser.ts';
import { password, setupOperator, userWithRole } from '../helpers/controller.ts';

let browser: Browser;
test.before(async () => {
  browser = await launchBrowser();
});
test.after.always(async () => {
  await browser?.close();
});

interface Signer {
  botId: string;
  secret: string;
}
interface Answer {
  status: number;
  body: { ok?: boolean; result?: { text: string }; error?: string; message?: string };
}

/** A chat user per call: two identical calls in the same second carry one signature, the second a replay. */
let calls = 0;
const nextChatUser = () => String(175928847299117000n + BigInt(++calls));

/** A server.status call over HTTP, signed as a bot signs it (the headers and HMAC the page shows), or unsigned. */
async function statusCall(base: string, nowMs: number, serverId: string, signer?: Signer): Promise<Answer> {
  const action = 'server.status';
  const chatUserId = nextChatUser();
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (signer) {
    const timestamp = String(Math.floor(nowMs / 1000));
    headers['X-Chat-Bot'] = signer.botId;
    headers['X-Chat-Timestamp'] = timestamp;
    headers['X-Chat-Signature'] =
      `sha256=${createHmac('sha256', signer.secret).update(`${timestamp}.${action}.${chatUserId}`).digest('hex')}`;
  }
  const res = await fetch(new URL('/api/chat/action', base), {
    method: 'POST',
    headers,
    body: JSON.stringify({ action, chatUserId, serverId }),
  });
  return { status: res.status, body: (await res.json()) as Answer['body'] };
}

test('chat bots: a secret shown once that signs calls, rotation with 24 h of overlap, removal, and refusing unsigned calls', async (t) => {
  const { env, base } = await e2eWorld(t);
  await setupOperator(env);
  const owner = await userWithRole(env, 'owner');
  const { server } = await registerServer(env.deps, owner.accountId, { name: 'Chernarus #1' });
  // Signed with the service's clock (the world's clock stands still while the test runs).
  const call = (signer?: Signer) => statusCall(base, env.clock.now(), server.id, signer);
  const { context, page } = await newPage(t, browser, base);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
  await signInContext(context, owner.username, password);

  await page.goto('/chat-roles');
  await page.getByRole('heading', { level: 1, name: 'Chat bots and roles' }).waitFor();
  const chatLink = (p: typeof page) => p.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Chat bots and roles' });
  t.is(await chatLink(page).count(), 1, 'the owner is offered the page');
  await page.getByRole('region', { name: 'Chat bots of your community' }).getByText('No bots yet.').waitFor();
  const add = page.getByRole('region', { name: 'Add a bot' });
  await add.getByLabel('Name').fill('Discord bot');
  await add.getByRole('button', { name: 'Add bot' }).click();
  const panel = page.locator('.secret');
  const secret = await panel.getByTestId('secret-value').innerText();
  t.regex(secret, /^svcb_[A-Za-z0-9_-]{43}$/);
  const botId = await panel.getByTestId('bot-id').innerText();
  const row = page.getByRole('row').filter({ hasText: 'Discord bot' });
  t.true((await row.innerText()).includes(botId), 'the list shows the id the panel gives');
  t.true((await panel.innerText()).includes('X-Chat-Signature: sha256=<hex HMAC-SHA256(secret, "timestamp.action.chatUserId")>'));
  t.is(
    await panel.getByTestId('bot-command').innerText(),
    `CHAT_BOT_SECRET=${secret} npm run cli -- chat server.status \\\n  --user <discord user id> --server <server id> --bot ${botId} --url ${base}`,
  );
  await panel.getByRole('button', { name: 'Copy', exact: true }).click();
  await panel.getByRole('status').filter({ hasText: 'Copied.' }).waitFor();
  t.is(await page.evaluate(() => navigator.clipboard.readText()), secret, 'the secret is what was copied');

  // The secret shown signs a call that runs; a wrong one is refused.
  const signed = await call({ botId, secret });
  t.is(signed.status, 200, JSON.stringify(signed.body));
  t.regex(signed.body.result?.text ?? '', /^Chernarus #1: offline/);
  t.is((await call({ botId, secret: `${secret.slice(0, -1)}x` })).status, 403, 'another secret signs nothing');

  await panel.getByRole('button', { name: 'I have copied it' }).click();
  await panel.waitFor({ state: 'detached' });
  t.false((await page.content()).includes(secret), 'the secret is gone from the page');
  await page.reload();
  await row.waitFor();
  t.false((await page.content()).includes(secret), 'and does not come back');
  t.false((await row.innerText()).includes('Old secret valid until'), 'no overlap before a rotation');

  await row.getByRole('button', { name: 'Rotate secret' }).click();
  await row.getByRole('group', { name: /The old secret keeps working for 24 hours\./ }).waitFor();
  await row.getByRole('button', { name: 'Yes' }).click();
  const rotated = await panel.getByTestId('secret-value').innerText();
  t.regex(rotated, /^svcb_[A-Za-z0-9_-]{43}$/);
  t.not(rotated, secret);
  t.is(await panel.getByTestId('bot-id').innerText(), botId);
  await row.getByText('Old secret valid until').waitFor();
  const until = await row.getByText('Old secret valid until').locator('time').getAttribute('datetime');
  t.true(Math.abs(Date.parse(until!) - (env.clock.now() + 24 * 3600_000)) < 1000, `the old secret works 24 hours more (${until})`);
  t.is((await call({ botId, secret: rotated })).status, 200, 'the new secret signs');
  t.is((await call({ botId, secret })).status, 200, 'and the old one still does');
  await checkPage(t, page, 'chat-bots');

  await panel.getByRole('button', { name: 'I have copied it' }).click();
  await row.getByRole('button', { name: 'Remove' }).click();
  await row.getByRole('button', { name: 'Yes' }).click();
  await page.getByRole('status').filter({ hasText: '"Discord bot" is removed' }).waitFor();
  await row.waitFor({ state: 'detached' });
  const removed = await call({ botId, secret: rotated });
  t.is(removed.status, 403, JSON.stringify(removed.body));
  t.is(removed.body.error, 'FORBIDDEN');
  t.is((await call({ botId, secret })).status, 403, 'nor with the old secret');

  // Unsigned calls naming the community's server run (as the chat-bot role) until the switch refuses them.
  t.is((await call()).status, 200, 'unsigned calls run while allowed');
  const refuse = page.getByLabel('Refuse unsigned calls');
  t.false(await refuse.isChecked());
  await refuse.check();
  await page.getByRole('status').filter({ hasText: 'Unsigned calls are refused' }).waitFor();
  const unsigned = await call();
  t.is(unsigned.status, 403, JSON.stringify(unsigned.body));
  await page.reload();
  t.true(await refuse.isChecked(), 'the setting is kept');
  await refuse.uncheck();
  await page.getByRole('status').filter({ hasText: 'Unsigned calls run again' }).waitFor();
  t.is((await call()).status, 200, 'unsigned calls run again');
  noScriptErrors(t, page);

  // An admin (no users.manage) is not offered the page, nor can open it.
  const admin = await userWithRole(env, 'admin', owner.accountId);
  const other = await newPage(t, browser, base);
  await signInContext(other.context, admin.username, password);
  await other.page.goto('/chat-roles');
  await other.page.getByText('Your role cannot open this page.').waitFor();
  t.is(await chatLink(other.page).count(), 0, 'nor listed in its navigation');
});
