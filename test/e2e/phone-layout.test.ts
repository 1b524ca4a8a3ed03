// In a real Chromium at 360 px, a small phone's width: every page of the dashboard, with the demo's
// data and more (long names, ids, links, open forms and confirmations), reads without sideways
// scrolling, every button and link lies inside the screen's width, and axe-core finds no serious
// or critical problem. Tables are cards there, each value under its column's words.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import type { ExecutionContext } from 'ava';
import type { Browser, Page } from 'playwright-core';
import { loadDemo } from '../../src/demo/load-demo.ts';
import type { DemoData } from '../../src/demo/load-demo.ts';
import type { E2eWorld } from '../helpers/browser.ts';
import { accessible, artifactsDir, e2eWorld, launchBrowser, newPage, noScriptErrors, signInContext } from '../helpers/browser.ts';
import { call } from '../helpers/controller-http.ts';
import { password, signIn, userWithRole } from '../helpers/controller.ts';
import { submit } from '../helpers/trust.ts';

let browser: Browser;
let world: E2eWorld;
let demo: DemoData;
const longWord = 'Supercalifragilisticexpialidocious_aimbot_with_a_very_long_unbroken_name';

/**
 * The demo's data (two servers with their history, players online, bans, a pool entry; its admin
 * the network operator's owner, who sees every page) and more: what makes a narrow screen hard
 * (long names, ids and links) and every list filled.
 */
const teardowns: (() => Promise<void> | void)[] = [];
test.before(async (t) => {
  t.timeout(240_000); // the demo's history goes through the real ingestion
  browser = await launchBrowser();
  world = await e2eWorld({ teardown: (fn) => void teardowns.push(fn) });
  const { env } = world;
  demo = await loadDemo(env.deps, join(await mkdtemp(join(tmpdir(), 'phone-demo-')), 'credentials.json'));
  const admin = await signIn(env, demo.admin.username!, demo.admin.password!);
  const seed = async (method: 'post' | 'put', path: string, body: object) => {
    const res = await call(env, admin, method, path, body);
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  };
  const first = demo.servers[0]!;
  await seed('post', '/api/bans', { platformId: '76561198000000901', playerName: longWord, reason: `${longWord} seen twice` });
  await seed('post', '/api/priority-queue', {
    platformId: '76561198000000001',
    serverIds: [first.id],
    durationDays: 30,
    comment: 'Supporter since the first wipe, thanks for everything',
  });
  await seed('post', '/api/priority-queue', { platformId: '76561198000000902', playerName: longWord });
  await seed('post', '/api/users', { username: 'moderator-with-a-rather-long-name', password, role: 'moderator' });
  await seed('post', '/api/chat/bots', { name: 'Discord bot of the community' });
  await seed('put', '/api/chat/user-roles/175928847299117063', { role: 'moderator' });
  await seed('post', '/api/account/api-keys', { name: 'community website' });
  await seed('post', '/api/trust/partner-keys', { name: 'Mirror Co', tier: 'premium' });
  await seed('post', `/api/servers/${first.id}/messages`, { text: 'Restart in 10 minutes, find a safe spot' });
  await seed('put', `/api/servers/${first.id}/restart-schedule`, { enabled: true, timeZone: 'Europe/Berlin', times: ['04:00', '16:00'] });
  await submit(env, await userWithRole(env, 'moderator'), {
    platformId: '76561198000000903',
    category: 'exploiting',
    reason: `duping through walls, ${longWord}`,
    evidence: [`https://example.org/clips/${longWord}/${longWord}.mp4`],
  });
});
test.after.always(async () => {
  for (const fn of teardowns.reverse()) await fn();
  await browser?.close();
});

const phone = { width: 360, height: 800 };

/** The page once it has loaded what it shows: no request in flight, no "Loading ..." left. */
async function settled(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await page
    .getByRole('status')
    .filter({ hasText: /^Loading / })
    .first()
    .waitFor({ state: 'detached' });
}

/** Not wider than the screen; every button and link within its width; axe-core content; a screenshot to look at. */
async function fitsPhone(t: ExecutionContext, page: Page, name: string): Promise<void> {
  await settled(page);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  t.true(overflow <= 0, `${name}: ${overflow} px wider than the screen`);
  const outside = await page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    return Array.from(document.querySelectorAll('button, a[href], input, select, textarea'))
      .map((el) => ({ el, box: el.getBoundingClientRect() }))
      .filter(({ el, box }) => box.width > 0 && box.height > 0 && !el.closest('.skip-link') && (box.left < 0 || box.right > width + 0.5))
      .map(
        ({ el, box }) =>
          `${el.tagName.toLowerCase()} "${(el.textContent || el.getAttribute('aria-label') || '').trim().slice(0, 40)}" ${Math.round(box.left)}..${Math.round(box.right)}`,
      );
  });
  t.deepEqual(outside, [], `${name}: controls beyond the screen's width`);
  await accessible(t, page, `${name} at 360 px`);
  await page.screenshot({ path: `${artifactsDir}phone-${name}-360.png`, fullPage: true });
}

/** A page of its own at 360 px, signed in as the demo's admin (or not). */
async function phonePage(t: ExecutionContext, signedIn = true): Promise<Page> {
  // Long enough for every page of a loaded machine: the whole run reports nothing until the test ends.
  t.timeout(240_000);
  const { context, page } = await newPage(t, browser, world.base);
  await page.setViewportSize(phone);
  if (signedIn) await signInContext(context, demo.admin.username!, demo.admin.password!);
  return page;
}

test('signed out at 360 px: the sign-in page and a public player page', async (t) => {
  const page = await phonePage(t, false);
  await page.goto('/signin');
  await page.getByRole('button', { name: 'Sign in' }).waitFor();
  await fitsPhone(t, page, 'signin');
  await page.goto(`/p/${demo.poolPlayer}`);
  await page.getByRole('heading', { level: 1 }).waitFor();
  await fitsPhone(t, page, 'player');
  noScriptErrors(t, page);
});

test('every page at 360 px: no sideways scrolling, every action within the screen, no serious accessibility problem', async (t) => {
  const page = await phonePage(t);
  const pages: [string, string][] = [
    ['servers', '/servers'],
    ['server-1', `/servers/${demo.servers[0]!.id}`],
    ['server-2', `/servers/${demo.servers[1]!.id}`],
    ['bans', '/bans'],
    ['queue', '/queue'],
    ['api-keys', '/account/api-keys'],
    ['settings', '/account/settings'],
    ['users', '/users'],
    ['chat-roles', '/chat-roles'],
    ['audit', '/audit'],
    ['trust', '/trust'],
    ['accounts', '/network/accounts'],
    ['partner-keys', '/network/partner-keys'],
  ];
  for (const [name, path] of pages) {
    await page.goto(path);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await fitsPhone(t, page, name);
  }
  noScriptErrors(t, page);
});

test('open forms and confirmations at 360 px stay within the screen; each value under its column', async (t) => {
  const page = await phonePage(t);
  await page.goto('/servers');
  await settled(page);
  const server = page.getByRole('row').filter({ hasText: demo.servers[0]!.name });
  await server.getByRole('button', { name: 'New ingest token' }).click();
  await fitsPhone(t, page, 'servers-confirm');
  await server.getByRole('button', { name: 'No' }).click();
  await server.getByRole('button', { name: /^Edit/ }).click();
  await fitsPhone(t, page, 'servers-edit');

  await page.goto('/bans');
  await settled(page);
  const ban = page.getByRole('row').filter({ hasText: longWord });
  t.deepEqual(await ban.locator('td').evaluateAll((cells) => cells.map((c) => c.getAttribute('data-label'))), [
    'Player',
    'Reason',
    'State',
    'Until',
    'Banned',
    'Ban id',
    'Actions',
  ]);
  await ban.getByRole('button', { name: 'Lift' }).click();
  await fitsPhone(t, page, 'bans-confirm');
  await ban.getByRole('button', { name: 'No' }).click();
  await ban.getByRole('button', { name: /Submit to the pool/ }).click();
  await fitsPhone(t, page, 'bans-submit');

  await page.goto('/queue');
  await settled(page);
  const entry = page.getByRole('row').filter({ hasText: '76561198000000001' });
  t.regex(await entry.innerText(), /^Rexx \(as seen in game\)\s+76561198000000001/, 'a name beside the id');
  t.is(await entry.locator('td').first().getAttribute('data-label'), 'Player');
  await entry.getByRole('button', { name: /^Extend/ }).click();
  await fitsPhone(t, page, 'queue-extend');
  noScriptErrors(t, page);
});
