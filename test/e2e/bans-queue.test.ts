// In a real Chromium: a ban created on the Bans page reaches the server's ban file and its ban list
// on the server page, and leaves both when lifted; a timed ban shows its end; a queue entry added
// for some servers and for a number of days, extended, and removed, reaching the priority file;
// another community's ban imported by its id, and an own ban submitted to the trust pool.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import test from 'ava';
import type { Browser } from 'playwright-core';
import { drainSyncRequests } from '../../src/game-files/sync-job.ts';
import { dayzIdOf } from '../../src/identities/id-forms.ts';
import { accessible, checkPage, e2eWorld, launchBrowser, newPage, noScriptErrors, signInContext } from '../helpers/browser.ts';
import { call } from '../helpers/controller-http.ts';
import { password, setupOperator, userWithRole } from '../helpers/controller.ts';
import { gameFilesDirFor } from '../helpers/game-files-dir.ts';

let browser: Browser;
test.before(async () => {
  browser = await launchBrowser();
});
test.after.always(async () => {
  await browser?.close();
});

const cheater = '76561198000000042';

test("a ban made on the Bans page is in the ban file and the server's ban list until it is lifted", async (t) => {
  // The operator's own server, its ban file on the service's host.
  const dir = await gameFilesDirFor(t, 'e2e-bans-');
  const { env, base } = await e2eWorld(t, { GAME_FILES_DIR: dir });
  const owner = await setupOperator(env, 'owner');
  const banFile = join(dir, 'ban.txt');
  const server = (await call(env, owner, 'post', '/api/servers', { name: 'Chernarus #1', banFilePath: 'ban.txt' })).body.server as {
    id: string;
  };
  await drainSyncRequests(env.deps);
  const { context, page } = await newPage(t, browser, base);
  await signInContext(context, 'owner', password);

  await page.goto('/bans');
  const create = page.getByRole('region', { name: 'Ban a player' });
  await create.getByLabel('Player id').fill(cheater);
  await create.getByLabel('Player name (optional)').fill('Rexx');
  await create.getByLabel('Reason (optional)').fill('aimbot, seen by two admins');
  await create.getByRole('button', { name: 'Ban' }).click();
  await page.getByRole('status').filter({ hasText: 'Rexx is banned for good' }).waitFor();
  const row = page.getByRole('row').filter({ hasText: 'Rexx' });
  t.regex(await row.innerText(), /aimbot, seen by two admins\s+In force\s+Permanent/);

  // The worker's sync job writes the file (run here directly) and records what each server holds.
  t.like(await drainSyncRequests(env.deps), { failed: 0 });
  t.is(await readFile(banFile, 'utf8'), `${cheater}\r\n${dayzIdOf(cheater)}\r\n`);
  await page.goto(`/servers/${server.id}`);
  const list = page.getByRole('region', { name: 'Bans synced to this server' });
  await list.getByText('Rexx').waitFor();
  t.regex(await list.innerText(), /aimbot, seen by two admins\s+Permanent/);

  // A timed ban shows when it ends.
  await page.goto('/bans');
  await create.getByLabel('Player id').fill('76561198000000043');
  await create.getByLabel('For a time').check();
  await create.getByLabel('How long').fill('2');
  await create.getByLabel('Unit').selectOption('hours');
  await create.getByRole('button', { name: 'Ban' }).click();
  await page.getByRole('status').filter({ hasText: 'banned until the time shown' }).waitFor();
  const timed = (await call(env, owner, 'get', '/api/bans?platformId=76561198000000043')).body.bans[0] as { expiresAt: string };
  t.true(Math.abs(Date.parse(timed.expiresAt) - (env.clock.now() + 2 * 3600_000)) < 1000);
  await checkPage(t, page, 'bans');

  await row.getByRole('button', { name: 'Lift' }).click();
  await row.getByRole('button', { name: 'Yes' }).click();
  await page.getByRole('status').filter({ hasText: 'The ban of Rexx is lifted.' }).waitFor();
  await row.getByText('Lifted', { exact: true }).waitFor();
  t.false(await row.getByRole('button', { name: 'Lift' }).isVisible(), 'a lifted ban cannot be lifted again');
  // Its end is who lifted it and when, not the end it had.
  t.regex(await row.getByRole('cell').nth(3).innerText(), /^Lifted by owner at \S/);
  t.notRegex(await row.innerText(), /Permanent/);
  await drainSyncRequests(env.deps);
  t.is(await readFile(banFile, 'utf8'), '76561198000000043\r\n' + `${dayzIdOf('76561198000000043')}\r\n`);
  await page.goto(`/servers/${server.id}`);
  await list.locator('tbody tr').first().waitFor();
  t.false(await list.getByText('Rexx').isVisible(), "gone from the server's ban list");
  noScriptErrors(t, page);
});

test('a queue entry for chosen servers and some days, extended, then removed; it reaches the priority file', async (t) => {
  const dir = await gameFilesDirFor(t, 'e2e-queue-');
  const { env, base } = await e2eWorld(t, { GAME_FILES_DIR: dir });
  const owner = await setupOperator(env, 'owner');
  const priorityFile = join(dir, 'priority.txt');
  t.is((await call(env, owner, 'post', '/api/servers', { name: 'Chernarus #1', priorityFilePath: 'priority.txt' })).status, 201);
  await call(env, owner, 'post', '/api/servers', { name: 'Livonia' });
  const { context, page } = await newPage(t, browser, base);
  await signInContext(context, 'owner', password);

  await page.goto('/queue');
  const add = page.getByRole('region', { name: 'Add a player to the queue' });
  await add.getByLabel('Player id').fill('76561198000000077');
  await add.getByLabel('Player name (optional)').fill('Vip Vera');
  await add.getByLabel('Days', { exact: true }).fill('30');
  await add.getByLabel('Only the servers chosen below').check();
  await add.getByRole('button', { name: 'Add to the queue' }).click();
  await page.getByRole('alert').filter({ hasText: 'Choose at least one server, or every server.' }).waitFor();
  await add.getByLabel('Chernarus #1').check();
  await add.getByRole('button', { name: 'Add to the queue' }).click();
  await page.getByRole('status').filter({ hasText: 'Vip Vera is in the queue.' }).waitFor();
  const row = page.getByRole('row').filter({ hasText: 'Vip Vera' });
  t.regex(await row.innerText(), /Chernarus #1/);
  t.notRegex(await row.innerText(), /Livonia/);
  const entry = async () => (await call(env, owner, 'get', '/api/priority-queue')).body.entries[0] as { id: string; expiresAt: string };
  const first = await entry();
  t.true(Math.abs(Date.parse(first.expiresAt) - (env.clock.now() + 30 * 86_400_000)) < 1000);
  await drainSyncRequests(env.deps);
  t.is(await readFile(priorityFile, 'utf8'), '76561198000000077;');
  await checkPage(t, page, 'queue');

  await row.getByRole('button', { name: 'Extend' }).click();
  await row.getByLabel('Days more').fill('10');
  await row.getByRole('button', { name: 'Extend' }).click();
  await page.getByRole('status').filter({ hasText: 'Vip Vera: extended by 10 days.' }).waitFor();
  t.is(Date.parse((await entry()).expiresAt) - Date.parse(first.expiresAt), 10 * 86_400_000, 'counted on from the old expiry');

  await row.getByRole('button', { name: 'Remove' }).click();
  await row.getByRole('button', { name: 'Yes' }).click();
  await page.getByRole('status').filter({ hasText: 'Vip Vera is out of the queue.' }).waitFor();
  await page.getByRole('row').filter({ hasText: 'Vip Vera' }).waitFor({ state: 'detached' });
  await drainSyncRequests(env.deps);
  t.is(await readFile(priorityFile, 'utf8'), '');
  noScriptErrors(t, page);
});

test("another community's ban imported by its id; an own ban submitted to the trust pool", async (t) => {
  const { env, base } = await e2eWorld(t);
  const owner = await setupOperator(env, 'owner');
  const other = await userWithRole(env, 'moderator');
  const shared = (
    await call(env, other, 'post', '/api/bans', { platformId: '76561198000000055', playerName: 'Dupe Dan', reason: 'duping' })
  ).body as { id: string };
  const own = (
    await call(env, owner, 'post', '/api/bans', { platformId: '76561198000000056', playerName: 'Wall Walter', reason: 'wallhack' })
  ).body as { id: string };
  const { context, page } = await newPage(t, browser, base);
  await signInContext(context, 'owner', password);

  await page.goto('/bans');
  const importForm = page.getByRole('region', { name: 'Import a ban by its id' });
  await importForm.getByLabel('Ban id').fill(shared.id);
  await importForm.getByRole('button', { name: 'Import' }).click();
  await page.getByRole('status').filter({ hasText: 'Imported: Dupe Dan is banned here too.' }).waitFor();
  t.regex(await page.getByRole('row').filter({ hasText: 'Dupe Dan' }).innerText(), /duping\s+imported from another community\s+In force/);
  await importForm.getByLabel('Ban id').fill(shared.id);
  await importForm.getByRole('button', { name: 'Import' }).click();
  t.regex(await importForm.getByRole('alert').innerText(), /^The player already has a ban in force/);

  const row = page.getByRole('row').filter({ hasText: 'Wall Walter' });
  t.false(
    await page
      .getByRole('row')
      .filter({ hasText: 'Dupe Dan' })
      .getByRole('button', { name: /Submit to the pool/ })
      .isVisible(),
    'an imported ban is no evidence of this community',
  );
  await row.getByRole('button', { name: /Submit to the pool/ }).click();
  const form = page.getByRole('region', { name: 'Submit the ban of Wall Walter to the trust pool' });
  // No category is chosen for the admin: submitting without one says so; each says what it means.
  t.is(await form.getByRole('radio', { checked: true }).count(), 0, 'no category chosen at first');
  await form.getByRole('button', { name: 'Submit' }).click();
  t.regex(await form.getByRole('alert').innerText(), /^Choose a category/);
  t.is(
    await form
      .getByLabel('Exploiting', { exact: true })
      .getAttribute('aria-describedby')
      .then((id) => page.locator(`[id="${id}"]`).innerText()),
    'Abusing game bugs, such as duping items or glitching through walls into bases.',
  );
  await form.getByLabel('Cheating', { exact: true }).check();
  await accessible(t, page, 'bans-submit-to-pool');
  await form.getByLabel('Evidence links (optional)').fill('https://example.org/walter-clip\nhttps://example.org/walter-log');
  await form.getByRole('button', { name: 'Submit' }).click();
  await page.getByRole('status').filter({ hasText: 'The ban of Wall Walter is submitted to the pool' }).waitFor();
  const entries = (await call(env, owner, 'get', '/api/trust/submissions')).body.submissions as {
    banId: string;
    status: string;
    evidence: string[];
    reason: string;
  }[];
  t.like(entries[0], { banId: own.id, status: 'pending', reason: 'wallhack', category: 'cheating' });
  t.deepEqual(entries[0]!.evidence, ['https://example.org/walter-clip', 'https://example.org/walter-log']);
  noScriptErrors(t, page);
});
