// In a real Chromium: an admin restarts a server (delay, message), messages every player and kicks
// one from the online list; the history shows each pending, then as the agent answered (the agent
// played over HTTP with the server's ingest token), picked up by the page's own refresh. The restart
// schedule filled "every 6 hours from 03:00", saved with its next restart, removed. A viewer reads
// the history (with "load older") and the schedule, and is offered no action.
import test from 'ava';
import type { Browser, Page } from 'playwright-core';
import { checkPage, e2eWorld, launchBrowser, newPage, noScriptErrors, settledTexts, signInContext } from '../helpers/browser.ts';
import { call } from '../helpers/controller-http.ts';
import { password, setupOperator, userWithRole } from '../helpers/controller.ts';
import type { Session } from '../helpers/controller.ts';
import type { TestEnv } from '../helpers/env.ts';
import { ev, ingest, player } from '../helpers/seed.ts';

let browser: Browser;
test.before(async () => {
  browser = await launchBrowser();
});
test.after.always(async () => {
  await browser?.close();
});

/** A community admin (not the operator's) with one server, players 1 and 2 online on it. */
async function adminWithServer(env: TestEnv): Promise<{ admin: Session; serverId: string; token: string }> {
  await setupOperator(env, 'owner');
  const admin = await userWithRole(env, 'admin');
  const created = (await call(env, admin, 'post', '/api/servers', { name: 'Chernarus #1' })).body as {
    server: { id: string };
    ingestToken: string;
  };
  const s = { serverId: created.server.id, token: created.ingestToken };
  const now = env.clock.now();
  const res = await ingest(env, s, [
    ev.presence('player.heartbeat', now - 2000, 1),
    ev.presence('player.heartbeat', now - 2000, 2),
    ev.status(now - 1000, { players: 2 }),
  ]);
  if (res.status !== 200) throw new Error(`ingest failed: ${res.status}`);
  return { admin, ...s };
}

/** The history's rows, as their cells' texts joined by " | ". */
const historyRows = (page: Page) => page.getByRole('region', { name: 'Commands, newest first' }).locator('tbody tr');
const rowTexts = async (page: Page) =>
  await historyRows(page).evaluateAll((rows) =>
    rows.map((r) => [...r.querySelectorAll('td')].map((td) => (td as HTMLElement).innerText.trim()).join(' | ')),
  );

test('an admin restarts, messages and kicks; the history shows each pending, then as the agent answered', async (t) => {
  const { env, base } = await e2eWorld(t);
  const { admin, serverId, token } = await adminWithServer(env);
  const { context, page } = await newPage(t, browser, base);
  await signInContext(context, admin.username, password);
  // The page's own clock, running as the real one until the test moves it on to the next refresh.
  await page.clock.install();
  await page.goto(`/servers/${serverId}`);
  const actions = page.getByRole('region', { name: 'Server actions' });
  await page.getByRole('heading', { name: 'Command history' }).waitFor();
  await page.getByText('No commands yet.').waitFor();

  // Restart in 5 minutes with a message: one more step before it goes.
  await actions.getByLabel('Shut down').selectOption({ label: 'In 5 minutes' });
  await actions.getByLabel('Message with each warning (optional)').fill('Daily restart');
  await actions.getByRole('button', { name: 'Restart the server' }).click();
  const confirm = actions.getByRole('group', { name: 'Confirm the restart' });
  t.regex(await confirm.innerText(), /Restart Chernarus #1 in 5 minutes\?/);
  t.true(await page.getByText('No commands yet.').isVisible(), 'nothing queued before the confirmation');
  await confirm.getByRole('button', { name: 'Yes, restart' }).click();
  await actions
    .getByRole('status')
    .filter({ hasText: 'Queued: the agent restarts the server 5 minutes after it takes the command.' })
    .waitFor();
  t.deepEqual(await settledTexts(historyRows(page).locator('td:nth-child(2)'), ["Restart in 5 min — 'Daily restart'"]), [
    "Restart in 5 min — 'Daily restart'",
  ]);

  await actions.getByLabel('Message', { exact: true }).fill('Hello survivors');
  await actions.getByRole('button', { name: 'Send the message' }).click();
  await actions
    .getByRole('status')
    .filter({ hasText: 'Queued: the agent sends the message to every player when it takes the command.' })
    .waitFor();

  // Kick player 2 from the online list, with a reason.
  const online = page.getByRole('region', { name: 'Players active in the last 90 seconds' });
  await online.getByRole('row').filter({ hasText: 'player2' }).getByRole('button', { name: 'Kick player2' }).click();
  const kick = page.getByRole('form', { name: 'Kick player2' });
  await kick.getByLabel('Reason (optional)').fill('AFK too long');
  await kick.getByRole('button', { name: 'Kick player2' }).click();
  await page.getByRole('status').filter({ hasText: 'Queued: the agent kicks player2 when it takes the command.' }).waitFor();
  t.false(await kick.isVisible(), 'the kick step closed');

  const what = [`Kick ${player(2).platformId} — AFK too long`, "Message 'Hello survivors'", "Restart in 5 min — 'Daily restart'"];
  t.deepEqual(await settledTexts(historyRows(page).locator('td:nth-child(2)'), what), what, 'newest first, refreshed after each action');
  const withoutWhen = async () => (await rowTexts(page)).map((r) => r.split(' | ').slice(1).join(' | '));
  const pending = await withoutWhen();
  const waiting = ` \\| ${admin.username} \\| Pending \\| Waiting for the agent; expires in (9|10) minutes$`;
  t.is(pending.length, 3);
  t.regex(pending[0]!, new RegExp(`^Kick ${player(2).platformId} — AFK too long${waiting}`));
  t.regex(pending[1]!, new RegExp(`^Message 'Hello survivors'${waiting}`));
  t.regex(pending[2]!, new RegExp(`^Restart in 5 min — 'Daily restart'${waiting}`));
  const stored = (await call(env, admin, 'get', `/api/servers/${serverId}/commands`)).body as {
    commands: { kind: string; params: unknown }[];
  };
  t.deepEqual(
    stored.commands.map((c) => [c.kind, c.params]),
    [
      ['kick', { platformId: player(2).platformId, reason: 'AFK too long' }],
      ['message', { text: 'Hello survivors' }],
      ['restart', { delaySeconds: 300, message: 'Daily restart' }],
    ],
  );
  await checkPage(t, page, 'server-commands');

  // The agent, over HTTP with the ingest token: takes the three, kicks, fails the message, counts down the restart.
  const agent = { Authorization: `Bearer ${token}` };
  const next = await fetch(`${base}/api/servers/${serverId}/commands/next?wait=0`, { headers: agent });
  t.is(next.status, 200);
  const taken = ((await next.json()) as { commands: { id: string; kind: string }[] }).commands;
  t.deepEqual(
    taken.map((c) => c.kind),
    ['restart', 'message', 'kick'],
  );
  const result = async (kind: string, body: object) => {
    const res = await fetch(`${base}/api/servers/${serverId}/commands/${taken.find((c) => c.kind === kind)!.id}/result`, {
      method: 'POST',
      headers: { ...agent, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    t.is(res.status, 200, `the ${kind} result was taken`);
  };
  await result('kick', { status: 'done', detail: 'kicked' });
  await result('message', { status: 'failed', detail: "no RCon on this server's agent" });

  // No reload: the page refreshes itself while commands are open, every 5 s of its clock.
  await page.clock.fastForward(5000);
  const state = page.getByRole('region', { name: 'Commands, newest first' }).locator('tbody tr td:nth-child(4)');
  t.deepEqual(await settledTexts(state, ['Done', 'Failed', 'Sent'], 15_000), ['Done', 'Failed', 'Sent']);
  const answered = await withoutWhen();
  t.is(answered[0], `Kick ${player(2).platformId} — AFK too long | ${admin.username} | Done | kicked`);
  t.is(answered[1], `Message 'Hello survivors' | ${admin.username} | Failed | no RCon on this server's agent`);
  t.regex(answered[2]!, /^Restart in 5 min — 'Daily restart' \| .+ \| Sent \| Shuts down in [45]:\d\d$/);
  t.is(await historyRows(page).nth(0).locator('.badge.ok').count(), 1, 'done in the ok tone');
  t.is(await historyRows(page).nth(1).locator('.badge.bad').count(), 1, 'failed in the bad tone');

  // A community admin is offered no file paths on the service's host.
  await page.goto('/servers');
  await page.getByRole('heading', { name: 'Add a server' }).waitFor();
  t.is(await page.getByLabel('Ban file path (optional)').count(), 0);
  t.is(await page.getByLabel('Priority file path (optional)').count(), 0);
  noScriptErrors(t, page);
});

/** The next of the day's times (UTC hours) strictly after `nowMs`. */
function nextUtc(nowMs: number, hours: number[]): Date {
  const day = new Date(nowMs);
  day.setUTCHours(0, 0, 0, 0);
  const candidates = [0, 1].flatMap((d) => hours.map((h) => day.getTime() + d * 86_400_000 + h * 3_600_000));
  return new Date(candidates.filter((ms) => ms > nowMs).sort((a, b) => a - b)[0]!);
}

test('the restart schedule: every 6 hours from 03:00 fills the times, saved with its next restart, then removed', async (t) => {
  const { env, base } = await e2eWorld(t);
  const { admin, serverId } = await adminWithServer(env);
  const { context, page } = await newPage(t, browser, base);
  await signInContext(context, admin.username, password);
  await page.goto(`/servers/${serverId}`);
  const section = page.getByRole('region', { name: 'Restart schedule' });
  await section.getByText('No restart schedule is set').waitFor();
  const form = section.getByRole('form', { name: 'Set a schedule' });

  const zone = form.getByLabel('Time zone');
  t.is(await zone.inputValue(), await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone), "the browser's zone first");
  await zone.fill('UTC');
  await form.getByLabel('Times of day').fill('25:00');
  await form.getByRole('button', { name: 'Save the schedule' }).click();
  await form.getByRole('alert').filter({ hasText: '"25:00" is no time of day' }).waitFor();

  await form.getByLabel('Every (hours)').fill('6');
  await form.getByLabel('From').fill('03:00');
  await form.getByRole('button', { name: 'Fill the times' }).click();
  t.is(await form.getByLabel('Times of day').inputValue(), '03:00, 09:00, 15:00, 21:00');
  await form.getByLabel('Warning before each restart (seconds)').fill('600');
  await form.getByLabel('Message with each warning (optional)').fill('Scheduled restart');
  await form.getByRole('button', { name: 'Save the schedule' }).click();
  await section.getByRole('status').filter({ hasText: 'Restart schedule saved.' }).waitFor();

  const expected = nextUtc(env.clock.now(), [3, 9, 15, 21]);
  const stored = await call(env, admin, 'get', `/api/servers/${serverId}/restart-schedule`);
  t.like(stored.body, {
    enabled: true,
    timeZone: 'UTC',
    times: ['03:00', '09:00', '15:00', '21:00'],
    warningSeconds: 600,
    message: 'Scheduled restart',
    nextAt: expected.toISOString(),
  });
  const facts = section.locator('dl.facts');
  await facts.getByText('03:00, 09:00, 15:00, 21:00 (UTC)').waitFor();
  t.regex(await facts.innerText(), /Warning\s+10 minutes before/);
  const next = facts.locator(`time[datetime="${expected.toISOString()}"]`);
  t.true(await next.isVisible(), "the next restart in the community's zone");
  const hh = String(expected.getUTCHours()).padStart(2, '0');
  t.regex(
    await facts.locator('div').filter({ hasText: 'Next restart' }).innerText(),
    new RegExp(`\\d{2}:\\d{2} UTC \\(\\w+ ${hh}:00 in the server's zone, UTC\\)`),
  );
  await checkPage(t, page, 'server-schedule');

  // Saved: the form is now the change form, with the times as saved; then removed.
  const change = section.getByRole('form', { name: 'Change the schedule' });
  t.is(await change.getByLabel('Times of day').inputValue(), '03:00, 09:00, 15:00, 21:00');
  await change.getByRole('button', { name: 'Remove the schedule' }).click();
  await change.getByRole('button', { name: 'Yes' }).click();
  await section.getByRole('status').filter({ hasText: 'Restart schedule removed.' }).waitFor();
  await section.getByText('No restart schedule is set').waitFor();
  t.is((await call(env, admin, 'get', `/api/servers/${serverId}/restart-schedule`)).status, 404);
  noScriptErrors(t, page);
});

test('a viewer reads the history (load older) and the schedule, and is offered no action', async (t) => {
  const { env, base } = await e2eWorld(t);
  const { admin, serverId } = await adminWithServer(env);
  for (let i = 1; i <= 20; i++)
    t.is((await call(env, admin, 'post', `/api/servers/${serverId}/messages`, { text: `Note ${i}` })).status, 202);
  t.is((await call(env, admin, 'post', `/api/servers/${serverId}/restart`, { delaySeconds: 600, message: 'Update' })).status, 202);
  t.is(
    (
      await call(env, admin, 'put', `/api/servers/${serverId}/restart-schedule`, {
        enabled: true,
        timeZone: 'Europe/Berlin',
        times: ['16:00', '04:00'],
      })
    ).status,
    200,
  );
  const viewer = await userWithRole(env, 'viewer', admin.accountId);
  const { context, page } = await newPage(t, browser, base);
  await signInContext(context, viewer.username, password);
  await page.goto(`/servers/${serverId}`);

  await page.getByRole('button', { name: 'Load older commands' }).waitFor();
  t.is(await historyRows(page).count(), 20);
  t.regex((await rowTexts(page))[0]!, new RegExp(`Restart in 10 min — 'Update' \\| ${admin.username} \\| Pending`));
  await page.getByRole('button', { name: 'Load older commands' }).click();
  await page.getByRole('button', { name: 'Load older commands' }).waitFor({ state: 'detached' });
  t.is(await historyRows(page).count(), 21);
  t.regex((await rowTexts(page)).at(-1)!, /Message 'Note 1'/);

  const schedule = page.getByRole('region', { name: 'Restart schedule' });
  await schedule.getByText('04:00, 16:00 (Europe/Berlin)').waitFor();
  t.regex(await schedule.innerText(), /Next restart\s+.+ UTC \(\w+ (04|16):00 in the server's zone, Europe\/Berlin\)/);
  await page
    .getByRole('region', { name: 'Players active in the last 90 seconds' })
    .getByRole('row')
    .filter({ hasText: 'player1' })
    .waitFor();
  await page.getByRole('region', { name: /^Ranking by points/ }).waitFor();

  t.deepEqual(await page.getByRole('button').allInnerTexts(), ['Find', 'Sign out', 'Previous page', 'Next page']);
  t.is(await page.getByRole('heading', { name: 'Server actions' }).count(), 0);
  t.is(await schedule.getByRole('form').count(), 0, 'no schedule editor');
  t.is(await page.getByRole('textbox').count(), 0, 'nothing to type into');
  await checkPage(t, page, 'server-viewer');
});
