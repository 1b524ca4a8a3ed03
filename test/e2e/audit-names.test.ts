// In a real Chromium: the audit log names what each entry targets (a server, a user, a banned or
// queued player) and says each action in words, its code beside it, never broken mid-word; the
// worker's routine file syncs show only with "Show file syncs". The queue and the trust pool name
// players beside their ids, a store-granted queue entry by the name its player was seen with.
import { randomUUID } from 'node:crypto';
import test from 'ava';
import type { Browser } from 'playwright-core';
import { drainSyncRequests } from '../../src/game-files/sync-job.ts';
import { placeQueueEntry, resolveQueueInput } from '../../src/queue/queue.ts';
import { inTransaction } from '../../src/store/db.ts';
import { checkPage, e2eWorld, launchBrowser, newPage, noScriptErrors, settledTexts, signInContext } from '../helpers/browser.ts';
import { call } from '../helpers/controller-http.ts';
import { password, setupOperator } from '../helpers/controller.ts';
import { gameFilesDirFor } from '../helpers/game-files-dir.ts';
import { ingest } from '../helpers/seed.ts';

let browser: Browser;
test.before(async () => {
  browser = await launchBrowser();
});
test.after.always(async () => {
  await browser?.close();
});

const larry = '76561198000000401';

test('the audit log names its targets and says its actions in words; file syncs on request; names beside ids', async (t) => {
  const dir = await gameFilesDirFor(t, 'e2e-audit-');
  const { env, base } = await e2eWorld(t, { GAME_FILES_DIR: dir });
  const owner = await setupOperator(env, 'owner');
  const made = (await call(env, owner, 'post', '/api/servers', { name: 'Chernarus #1', banFilePath: 'ban.txt' })).body as {
    server: { id: string };
    ingestToken: string;
  };
  await ingest(env, { serverId: made.server.id, token: made.ingestToken }, [
    { id: randomUUID(), type: 'player.connect', ts: env.clock.now(), platformId: larry, name: 'Leaderboard Larry' },
  ]).expect(200);
  await call(env, owner, 'post', '/api/bans', { platformId: larry, reason: 'aimbot' });
  await drainSyncRequests(env.deps);
  // A slot the store granted: the purchase names the player by id only.
  const input = await resolveQueueInput(env.deps, owner.accountId, { platformId: larry, durationDays: 30 });
  await inTransaction(env.deps.db, (tx) =>
    placeQueueEntry(tx, owner.accountId, input, { type: 'store', id: 'own:1', name: 'Store' }, env.clock.now(), 'store'),
  );
  await call(env, owner, 'post', '/api/trust/submissions', { platformId: larry, category: 'cheating', reason: 'aimbot' });
  const { context, page } = await newPage(t, browser, base);
  await signInContext(context, 'owner', password);

  await page.goto('/audit');
  const log = page.getByRole('region', { name: 'Audit entries, newest first' });
  const ban = log.getByRole('row').filter({ hasText: 'Ban created' });
  t.regex(await ban.innerText(), /Ban created\s+ban\.create\s+Ban: Leaderboard Larry/);
  t.regex(await log.getByRole('row').filter({ hasText: 'Server added' }).innerText(), /Server: Chernarus #1/);
  t.regex(await log.getByRole('row').filter({ hasText: 'Signed in' }).first().innerText(), /User: owner/);
  t.is(await log.getByText('Game file synced').count(), 0, 'no routine sync unless asked');
  const wrap = await ban.locator('td.audit-action').evaluate((td) => [getComputedStyle(td).wordBreak, getComputedStyle(td).overflowWrap]);
  t.deepEqual(wrap, ['normal', 'normal'], 'an action never breaks mid-word');
  await checkPage(t, page, 'audit-named');

  await page.getByLabel('Show file syncs').check();
  await log.getByText('Game file synced').first().waitFor();
  t.regex(await log.getByRole('row').filter({ hasText: 'Game file synced' }).first().innerText(), /files\.sync\s+Server: Chernarus #1/);
  await page.getByLabel('Show file syncs').uncheck();
  const actions = log.locator('tbody td:nth-child(3)');
  t.false(
    (await settledTexts(actions, [])).some((text) => text.startsWith('Game file synced')),
    'hidden again',
  );

  await page.goto('/queue');
  const entry = page.getByRole('row').filter({ hasText: larry });
  t.regex(await entry.innerText(), /^Leaderboard Larry \(as seen in game\)\s+76561198000000401/);
  t.regex(await entry.innerText(), /store/);

  await page.goto('/trust');
  t.regex(await page.getByRole('row').filter({ hasText: larry }).innerText(), /^Leaderboard Larry\s+76561198000000401/);
  noScriptErrors(t, page);
});
