// In a real Chromium: adding a server shows its ingest token once with the agent's command line for
// it (its RCon flags, and how to turn RCon on); the server page shows its state, the chart of the
// last 24 hours, online players, the sorted and paged leaderboard and the killfeed with "load
// older"; editing, a new token (the old one stops) and revoking; an API key minted on Account ->
// API keys reads the Data API until revoked.
import test from 'ava';
import type { Browser } from 'playwright-core';
import { checkPage, e2eWorld, launchBrowser, newPage, noScriptErrors, signInContext } from '../helpers/browser.ts';
import { password, setupOperator } from '../helpers/controller.ts';
import { call } from '../helpers/controller-http.ts';
import { ev, ingest, player } from '../helpers/seed.ts';

let browser: Browser;
test.before(async () => {
  browser = await launchBrowser();
});
test.after.always(async () => {
  await browser?.close();
});

test('add a server: its token once, the agent command for it; the server page with chart, players, leaderboard and killfeed', async (t) => {
  const { env, base } = await e2eWorld(t);
  await setupOperator(env, 'owner');
  const { context, page } = await newPage(t, browser, base);
  await signInContext(context, 'owner', password);
  await page.goto('/servers');
  await page.getByLabel('Name', { exact: true }).fill('Chernarus #1');
  await page.getByRole('button', { name: 'Add server' }).click();
  const token = await page.getByTestId('secret-value').innerText();
  t.regex(token, /^svci_/);
  const serverId = await page
    .getByRole('link', { name: 'Chernarus #1' })
    .getAttribute('href')
    .then((h) => h!.split('/').pop()!);
  const command = await page.getByTestId('agent-command').innerText();
  t.is(
    command,
    `npm run agent -- --url ${base} --server ${serverId} --token ${token} \\\n  --logs /home/dayz/serverprofile --files /home/dayz/serverprofile \\\n` +
      '  --rcon-port 2305 --rcon-password-file /home/dayz/serverprofile/BattlEye/rcon-password.txt',
  );
  // The password file follows the profile folder until a path of its own is typed; the port is the one given.
  await page.getByLabel('Server profile folder').fill('/srv/dayz/profile');
  await page.getByLabel('RCon port').fill('2405');
  t.regex(
    await page.getByTestId('agent-command').innerText(),
    /--logs \/srv\/dayz\/profile --files \/srv\/dayz\/profile \\\n {2}--rcon-port 2405 --rcon-password-file \/srv\/dayz\/profile\/BattlEye\/rcon-password\.txt$/,
  );
  await page.getByLabel('RCon password file').fill('/etc/dayz agent/rcon');
  await page.getByLabel('Server profile folder').fill('/srv/other');
  t.regex(
    await page.getByTestId('agent-command').innerText(),
    /--logs \/srv\/other --files \/srv\/other \\\n {2}--rcon-port 2405 --rcon-password-file '\/etc\/dayz agent\/rcon'$/,
  );
  t.regex(await page.locator('.secret').innerText(), /RConPassword .+\nRConPort 2405\nRestrictRCon 0/);
  t.true(await page.getByRole('button', { name: 'Copy the command' }).isVisible());
  await page.getByRole('button', { name: 'I have copied it' }).click();
  t.false(await page.getByTestId('secret-value').isVisible(), 'the token is gone from the page');

  // The game server reports through the token shown: a day of samples, players online, kills.
  const now = env.clock.now();
  const day = Array.from({ length: 48 }, (_, i) => ev.status(now - (48 - i) * 30 * 60_000, { players: 10 + (i % 12), fps: 50 + (i % 7) }));
  const kills = Array.from({ length: 26 }, (_, i) => ev.kill(now - (30 - i) * 1000, 1 + (i % 3), 4 + (i % 2)));
  const online = [
    ev.presence('player.heartbeat', now - 2000, 1),
    ev.presence('player.heartbeat', now - 2000, 2),
    ev.status(now - 1000, { players: 2, fps: 57.5 }),
  ];
  t.is((await ingest(env, { serverId, token }, [...day, ...kills, ...online])).status, 200);

  await page.reload();
  const row = page.getByRole('row').filter({ hasText: 'Chernarus #1' });
  t.regex(await row.innerText(), /Online\s+2\s+57\.5\s+just now/);
  await checkPage(t, page, 'servers');

  await page.getByRole('link', { name: 'Chernarus #1' }).click();
  await page.getByRole('heading', { level: 1, name: 'Chernarus #1' }).waitFor();
  const chart = page.getByRole('img', { name: /Players and fps from/ });
  await chart.waitFor();
  t.regex(await page.locator('figcaption').innerText(), /^48 samples\. Players between 2 and 21; fps between 50\.0 and 57\.5\.$/);
  t.true(((await chart.locator('path').first().getAttribute('d')) ?? '').length > 100, 'the lines are drawn');
  // Each section loads on its own: wait for the one read before reading its rows.
  await page.getByRole('heading', { name: 'Online players (2)' }).waitFor();
  t.deepEqual(
    (
      await page.getByRole('region', { name: 'Players active in the last 90 seconds' }).locator('tbody tr td:first-child').allInnerTexts()
    ).sort(),
    ['player1', 'player2'],
  );

  const board = page.getByRole('region', { name: /^Ranking by/ });
  t.regex(await board.locator('caption').innerText(), /Ranking by points, players 1 to 5 of 5/);
  await page.getByLabel('Sort by').selectOption('kills');
  await page.getByRole('region', { name: /^Ranking by kills/ }).waitFor();
  t.is(
    await page
      .getByRole('region', { name: /^Ranking by kills/ })
      .locator('tbody tr')
      .first()
      .locator('td')
      .nth(1)
      .innerText(),
    player(1).name,
  );

  const feed = page.getByRole('region', { name: 'Kills, newest first' });
  await page.getByRole('button', { name: 'Load older kills' }).waitFor();
  t.is(await feed.locator('tbody tr').count(), 20);
  await page.getByRole('button', { name: 'Load older kills' }).click();
  await page.getByText('That is the first kill on this server.').waitFor();
  t.is(await feed.locator('tbody tr').count(), 26);
  t.false(await page.getByRole('button', { name: 'Load older kills' }).isVisible());
  await checkPage(t, page, 'server');
  noScriptErrors(t, page);
});

test('Account -> API keys: a key is shown once, reads the Data API, and stops at once when revoked', async (t) => {
  const { env, base } = await e2eWorld(t);
  await setupOperator(env, 'owner');
  const { context, page } = await newPage(t, browser, base);
  await signInContext(context, 'owner', password);
  await context.request.post('/api/servers', {
    data: { name: 'Livonia' },
    headers: { 'X-CSRF-Token': (await context.cookies()).find((c) => c.name === 'csrf-token')!.value },
  });
  await page.goto('/servers');
  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'API keys' }).click();
  await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
  await page.getByLabel('Name').fill('community website');
  await page.getByLabel('Tier').selectOption('partner');
  await page.getByRole('button', { name: 'Create key' }).click();
  const key = await page.getByTestId('secret-value').innerText();
  t.regex(key, /^svc_/);
  t.regex(await page.locator('.secret').innerText(), /Shown once/);

  const read = () => fetch(`${base}/api/v1/data/servers`, { headers: { Authorization: `Bearer ${key}` } });
  const answer = await read();
  t.is(answer.status, 200);
  t.deepEqual(
    ((await answer.json()) as { servers: { name: string }[] }).servers.map((s) => s.name),
    ['Livonia'],
  );
  t.is(answer.headers.get('ratelimit-limit'), '600', 'the partner tier chosen on the page');

  await page.getByRole('button', { name: 'I have copied it' }).click();
  await checkPage(t, page, 'api-keys');
  // A key revoked while its "shown once" panel is open takes the panel with it.
  await page.getByLabel('Name').fill('short-lived');
  await page.getByRole('button', { name: 'Create key' }).click();
  await page.getByTestId('secret-value').waitFor();
  const shortLived = page.getByRole('row').filter({ hasText: 'short-lived' });
  await shortLived.getByRole('button', { name: 'Revoke' }).click();
  await shortLived.getByRole('button', { name: 'Yes' }).click();
  await shortLived.getByText('Revoked').waitFor();
  t.false(await page.getByTestId('secret-value').isVisible(), 'no revoked key is offered');
  const row = page.getByRole('row').filter({ hasText: 'community website' });
  await row.getByRole('button', { name: 'Revoke' }).click();
  await row.getByRole('button', { name: 'Yes' }).click();
  await row.getByText('Revoked').waitFor();
  t.is((await read()).status, 401);
});

test('edit a server, give it a new ingest token (the old one stops), revoke it', async (t) => {
  const { env, base } = await e2eWorld(t);
  const owner = await setupOperator(env, 'owner');
  // A list longer than the screen, the server to edit at its top: the form must open where the user clicked.
  for (let i = 1; i <= 24; i++) await call(env, owner, 'post', '/api/servers', { name: `Server ${String(i).padStart(2, '0')}` });
  const created = (await call(env, owner, 'post', '/api/servers', { name: 'Old name' })).body as {
    server: { id: string };
    ingestToken: string;
  };
  const serverId = created.server.id;
  const { context, page } = await newPage(t, browser, base);
  await signInContext(context, 'owner', password);
  await page.goto('/servers');

  const editButton = page.getByRole('row').filter({ hasText: 'Old name' }).getByRole('button', { name: 'Edit' });
  await editButton.click();
  const edit = page.getByRole('region', { name: 'Edit Old name' });
  const heading = edit.getByRole('heading', { name: 'Edit Old name' });
  await heading.waitFor();
  const box = (await heading.boundingBox())!;
  const rowBox = (await page.getByRole('row').filter({ hasText: 'Old name' }).first().boundingBox())!;
  t.true(box.y >= 0 && box.y + box.height <= page.viewportSize()!.height, `the form opens in view (heading at ${box.y} px)`);
  t.true(box.y > rowBox.y && box.y < rowBox.y + rowBox.height + 100, 'right under the row whose Edit was pressed');
  t.true(await heading.evaluate((el) => el === document.activeElement), 'its heading has the focus');
  await checkPage(t, page, 'server-edit');
  await edit.getByRole('button', { name: 'Cancel' }).click();
  // Closed, the focus is back on the Edit button that opened it.
  await t.notThrowsAsync(page.waitForFunction((id) => document.activeElement?.id === id, `edit-server-${serverId}`, { timeout: 5000 }));
  await editButton.click();
  await edit.getByLabel('Name').fill('Deer Isle');
  t.is(await edit.getByLabel('Restart command (optional)').count(), 0, 'restarts go through the agent now');
  t.true(await edit.getByLabel('Ban file path (optional)').isVisible(), "the network operator's owner may name file paths");
  await edit.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('status').filter({ hasText: 'Deer Isle saved.' }).waitFor();
  t.like((await call(env, owner, 'get', `/api/servers/${serverId}`)).body, {
    name: 'Deer Isle',
    banFilePath: null,
    priorityFilePath: null,
  });

  const row = page.getByRole('row').filter({ hasText: 'Deer Isle' });
  await row.getByRole('button', { name: 'New ingest token' }).click();
  await row.getByRole('button', { name: 'Yes' }).click();
  const token = await page.getByTestId('secret-value').innerText();
  t.not(token, created.ingestToken);
  t.regex(await page.getByTestId('agent-command').innerText(), new RegExp(`--server ${serverId} --token ${token} `));
  t.is((await ingest(env, { serverId, token: created.ingestToken }, [ev.status(env.clock.now())])).status, 401, 'the old token stopped');
  t.is((await ingest(env, { serverId, token }, [ev.status(env.clock.now())])).status, 200);

  await row.getByRole('button', { name: 'Revoke' }).click();
  await row.getByRole('button', { name: 'Yes' }).click();
  await page.getByRole('status').filter({ hasText: 'Deer Isle revoked.' }).waitFor();
  await page.getByRole('row').filter({ hasText: 'Deer Isle' }).waitFor({ state: 'detached' });
  t.is((await ingest(env, { serverId, token }, [ev.status(env.clock.now())])).status, 401);
  noScriptErrors(t, page);
});
