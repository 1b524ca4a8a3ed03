// In a real Chromium: a player seen on the community's server has a profile page with ids, names,
// per-server totals, sessions and kills, the account's records and trust; a moderator adds and
// deletes a private note and toggles the watch flag (marked in the online list); the header's
// search finds the player by the start of a name; the leaderboard and killfeed link to the
// profile. The profile passes axe-core and reads at 360 px without sideways scrolling.
import test from 'ava';
import type { Browser } from 'playwright-core';
import { checkPage, e2eWorld, launchBrowser, newPage, noScriptErrors, signInContext } from '../helpers/browser.ts';
import { call } from '../helpers/controller-http.ts';
import { password, setupOperator } from '../helpers/controller.ts';
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
