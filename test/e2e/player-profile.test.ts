// In a real Chromium: a player seen on the community's server has a profile page with ids, names,
// per-server totals, sessions and kills, the account's records and trust; a moderator kicks the
// online player from there, adds and deletes a private note and toggles the watch flag (marked in
// the online list); the header's search finds the player by the start of a name; the leaderboard
// and killfeed link to the profile. The profile passes axe-core and reads at 360 px without
// sideways scrolling. A player the community banned and queued, and the network's pool reported,
// shows those records with their histories in words, the queue's servers by name and the pool
// entry beside the score.
import test from 'ava';
import type { Browser } from 'playwright-core';
import { checkPage, e2eWorld, launchBrowser, newPage, noScriptErrors, signInContext } from '../helpers/browser.ts';
import { call } from '../helpers/controller-http.ts';
import { password, setupOperator, userWithRole } from '../helpers/controller.ts';
import { decide, submit } from '../helpers/trust.ts';
import { ev, ingest, player } from '../helpers/seed.ts';

let browser: Browser;
test.before(async () => {
  browser = await launchBrowser();
});
test.after.always(async () => {
  await browser?.close();
});

test('the profile of a player with kills: sections, notes, watch, header search and links from the server page', async (t) => {
  const { env, base } = await e2eWorld(t);
  const owner = await setupOperator(env, 'owner');
  const created = (await call(env, owner, 'post', '/api/servers', { name: 'Chernarus #1' })).body as {
    server: { id: string };
    ingestToken: string;
  };
  const serverId = created.server.id;
  const now = env.clock.now();
  const hero = player(1);
  const events = [
    ev.presence('player.connect', now - 60_000, 1),
    ev.presence('player.connect', now - 60_000, 2),
    ev.kill(now - 30_000, 1, 2, { isHeadshot: true }),
    ev.kill(now - 20_000, 1, 2),
    ev.kill(now - 10_000, 2, 1),
    ev.presence('player.heartbeat', now - 2000, 1),
    ev.presence('player.heartbeat', now - 2000, 2),
  ];
  t.is((await ingest(env, { serverId, token: created.ingestToken }, events)).status, 200);

  const { context, page } = await newPage(t, browser, base);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await signInContext(context, 'owner', password);

  // The header's search: the start of a name lists the player, linked to the profile.
  await page.goto('/servers');
  await page.getByRole('searchbox', { name: 'Search players' }).fill('PLAYER1');
  await page.getByRole('search', { name: 'Find a player' }).getByRole('button', { name: 'Find' }).click();
  await page.getByRole('heading', { level: 1, name: 'Players' }).waitFor();
  const hits = page.getByRole('region', { name: /whose name starts with/ });
  await hits.getByRole('link', { name: hero.name }).waitFor();
  t.regex(await hits.innerText(), new RegExp(`${hero.platformId}[\\s\\S]*Chernarus #1`));
  await hits.getByRole('link', { name: hero.name }).click();
  await page.getByRole('heading', { level: 1, name: new RegExp(hero.name) }).waitFor();
  t.is(new URL(page.url()).pathname, `/players/${hero.platformId}`);

  // The sections.
  const ids = page.getByRole('region', { name: 'Ids' });
  t.regex(await ids.innerText(), new RegExp(`Steam64\\s+${hero.platformId}`));
  t.regex(await ids.innerText(), /DayZ ID\s+\S{43}=/);
  t.regex(await page.getByRole('region', { name: 'Names on your servers, most recently seen first' }).innerText(), /player1/);
  const on = page.getByRole('region', { name: /^On Chernarus #1/ });
  t.regex(await on.innerText(), /Kills\s+2\s+Deaths\s+1\s+K\/D\s+2\.00\s+Headshots\s+1/);
  t.is(await page.getByRole('region', { name: 'Recent kills by the player on Chernarus #1' }).locator('tbody tr').count(), 2);
  t.regex(await page.getByRole('region', { name: 'Recent deaths of the player on Chernarus #1' }).innerText(), /player2/);
  t.true(await page.getByRole('region', { name: 'Sessions on Chernarus #1, newest first' }).isVisible());
  for (const heading of ['Bans', 'Priority queue', 'Trust', 'Private notes'])
    t.true(await page.getByRole('heading', { level: 2, name: heading }).isVisible(), heading);
  t.is(
    await page.getByRole('link', { name: 'Ban this player' }).getAttribute('href'),
    `/bans?player=${hero.platformId}&name=player1#create-ban`,
  );

  // The player is online there: a kick, with its reason, goes to the server's agent.
  await on.getByRole('button', { name: `Kick ${hero.name}` }).click();
  await on.getByLabel('Reason (optional)').fill('Come back after the restart');
  await on.getByRole('button', { name: `Kick ${hero.name}` }).click();
  await on.getByText(/^Queued: /).waitFor();
  const commands = (await call(env, owner, 'get', `/api/servers/${serverId}/commands`)).body as {
    commands: { kind: string; params: Record<string, unknown> }[];
  };
  t.like(commands.commands[0], { kind: 'kick', params: { platformId: hero.platformId, reason: 'Come back after the restart' } });

  // A note added, then deleted.
  await page.getByLabel('New note').fill('Spawn-camps the airfield.\nWarned twice.');
  await page.getByRole('button', { name: 'Add the note' }).click();
  const notes = page.locator('.notes');
  await notes.getByText('Spawn-camps the airfield.').waitFor();
  t.regex(await notes.innerText(), /owner/);
  await notes.getByRole('button', { name: 'Delete the note' }).click();
  await notes.getByRole('button', { name: 'Yes' }).click();
  await page.getByText('No notes.').waitFor();
  t.is(((await call(env, owner, 'get', `/api/players/${hero.platformId}/notes`)).body as { notes: unknown[] }).notes.length, 0);

  // The watch flag, on, then marked in the online list.
  const watch = page.getByRole('button', { name: 'Watch this player' });
  t.is(await watch.getAttribute('aria-pressed'), 'false');
  await watch.click();
  await page.getByText('Watched', { exact: true }).waitFor();
  t.is(await watch.getAttribute('aria-pressed'), 'true');
  await checkPage(t, page, 'player-profile');

  await page.goto(`/servers/${serverId}`);
  const online = page.getByRole('region', { name: 'Players active in the last 90 seconds' });
  await online.getByRole('link', { name: hero.name }).waitFor();
  t.regex(await online.getByRole('row').filter({ hasText: hero.name }).innerText(), /watched/);
  t.notRegex(await online.getByRole('row').filter({ hasText: 'player2' }).innerText(), /watched/);

  // Leaderboard and killfeed link to the profile.
  const board = page.getByRole('region', { name: /^Ranking by/ });
  t.is(await board.getByRole('link', { name: hero.name }).getAttribute('href'), `/players/${hero.platformId}`);
  const feed = page.getByRole('region', { name: 'Kills, newest first' });
  await feed.getByRole('link', { name: 'player2' }).first().click();
  await page.getByRole('heading', { level: 1, name: /player2/ }).waitFor();
  t.is(new URL(page.url()).pathname, `/players/${player(2).platformId}`);

  // Back on the profile: the watch toggled off again.
  await page.goto(`/players/${hero.platformId}`);
  await page.getByRole('button', { name: 'Watch this player' }).click();
  await page.getByText('Not watched.').waitFor();

  // "Ban this player" and "Add to the priority queue" open the forms with the player filled in.
  await page.getByRole('link', { name: 'Ban this player' }).click();
  const create = page.getByRole('region', { name: 'Ban a player' });
  await create.waitFor();
  t.is(await create.getByLabel('Player id').inputValue(), hero.platformId);
  t.is(await create.getByLabel('Player name (optional)').inputValue(), hero.name);
  await page.goBack();
  await page.getByRole('link', { name: 'Add to the priority queue' }).click();
  const add = page.getByRole('region', { name: 'Add a player to the queue' });
  await add.waitFor();
  t.is(await add.getByLabel('Player id').inputValue(), hero.platformId);
  noScriptErrors(t, page);
});

test('the records of a banned, queued and reported player: bans and queue with their histories, the pool entry and the score', async (t) => {
  const { env, base } = await e2eWorld(t);
  const owner = await setupOperator(env, 'owner');
  const serverId = ((await call(env, owner, 'post', '/api/servers', { name: 'Chernarus #1' })).body as { server: { id: string } }).server
    .id;
  const suspect = player(7);
  const ban = await call(env, owner, 'post', '/api/bans', { platformId: suspect.platformId, playerName: suspect.name, reason: 'duping' });
  t.is(ban.status, 201);
  const banId = (ban.body as { id: string }).id;
  t.is((await call(env, owner, 'patch', `/api/bans/${banId}`, { reason: 'duping, confirmed' })).status, 200);
  const queued = await call(env, owner, 'post', '/api/priority-queue', {
    platformId: suspect.platformId,
    comment: 'Supporter',
    durationDays: 30,
    serverIds: [serverId],
  });
  t.is(queued.status, 201);
  // Another community reports the player; the network's moderator (the operator) approves it.
  const elsewhere = await userWithRole(env, 'moderator');
  await decide(env, owner, String((await submit(env, elsewhere, { platformId: suspect.platformId })).id), 'approve');

  const { context, page } = await newPage(t, browser, base);
  await signInContext(context, 'owner', password);
  await page.goto(`/players/${suspect.platformId}`);
  const bans = page.getByRole('region', { name: 'Bans' });
  await bans.getByText('duping, confirmed').waitFor();
  t.regex(await bans.innerText(), /In force/);
  const banHistory = bans.getByRole('table', { name: `History of ban ${banId}, newest first` });
  t.deepEqual(await banHistory.locator('tbody tr td:nth-child(2)').allInnerTexts(), ['Ban changed', 'Ban created']);
  t.regex(await banHistory.locator('tbody tr').first().innerText(), /owner/);

  const queue = page.getByRole('region', { name: 'Priority queue' });
  const entry = queue.getByRole('table', { name: "The player's queue entries" }).locator('tbody tr');
  await entry.filter({ hasText: 'Chernarus #1' }).waitFor();
  t.regex(await entry.innerText(), /Supporter/);
  t.deepEqual(await queue.getByRole('table', { name: 'Queue history, newest first' }).locator('tbody tr td:nth-child(2)').allInnerTexts(), [
    'Added to the queue',
  ]);

  const trust = page.getByRole('region', { name: 'Trust' });
  const pool = trust.getByRole('table', { name: 'Pool entries of the network' }).locator('tbody tr');
  t.is(await pool.count(), 1);
  t.regex(await pool.innerText(), /^community \S+\tCheating\tactive\t/);
  t.regex(await trust.innerText(), /Score \d+ \/ 100/);
  t.true((await trust.locator('.reasons li').count()) > 0);
  await checkPage(t, page, 'player-profile-records');
  noScriptErrors(t, page);
});
