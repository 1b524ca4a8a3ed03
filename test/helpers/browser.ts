// End-to-end helpers: the service listening on a random port of its own (a private world as every
// test has), pages in Chromium (launched by chromium.ts), screenshots at phone and desktop width
// checked to show more than one colour, and an axe-core check for serious accessibility problems.
import { mkdirSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { ExecutionContext } from 'ava';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { createApp } from '../../src/app.ts';
import { controllerEnv } from './controller-http.ts';
import type { TestEnv } from './env.ts';
import { decodePng } from './png.ts';

export { launchBrowser } from './chromium.ts';

export const artifactsDir = fileURLToPath(new URL('../../test-artifacts/', import.meta.url));
const axeSource = readFileSync(fileURLToPath(new URL('../../node_modules/axe-core/axe.min.js', import.meta.url)), 'utf8');

export interface E2eWorld {
  env: TestEnv;
  base: string;
}

/**
 * A private world (schema, Redis prefix) served on 127.0.0.1 at a random port. Its clock is set to
 * the real time, so that what the browser computes from Date.now() (the chart's last 24 hours,
 * "5 minutes ago") agrees with what the service stored. A hook, which has no teardown of its own,
 * passes one that the file's test.after.always runs.
 */
export async function e2eWorld(t: Pick<ExecutionContext, 'teardown'>, env: Record<string, string> = {}): Promise<E2eWorld> {
  const world = await controllerEnv(env);
  t.teardown(() => world.close());
  world.clock.set(Date.now());
  const server = createApp(world.deps).listen(0, '127.0.0.1');
  // Closed first (teardowns run last to first), and even when listening failed.
  t.teardown(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  return { env: world, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** A fresh browser context (its own cookies) and page, closed when the test ends. */
export async function newPage(t: ExecutionContext, browser: Browser, base: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: base, viewport: { width: 1280, height: 900 } });
  t.teardown(() => context.close());
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  scriptErrors.set(page, errors);
  return { context, page };
}

const scriptErrors = new WeakMap<Page, string[]>();
/** Asserts the page's scripts have thrown nothing so far. */
export const noScriptErrors = (t: ExecutionContext, page: Page) =>
  t.deepEqual(scriptErrors.get(page) ?? [], [], 'no script error on the page');

/** Signs the browser context in through the API (its cookies are the browser's). */
export async function signInContext(context: BrowserContext, username: string, password: string): Promise<void> {
  const res = await context.request.post('/api/auth/login', { data: { username, password } });
  if (res.status() !== 200) throw new Error(`sign-in of ${username} failed: ${res.status()}`);
}

/** Distinct colours among a grid of sampled pixels of a PNG. */
function colourCount(png: Buffer): number {
  const { width, height, channels, data } = decodePng(png);
  const seen = new Set<number>();
  const step = Math.max(1, Math.floor((width * height) / 20_000));
  for (let i = 0; i < width * height; i += step)
    seen.add((data[channels * i]! << 16) | (data[channels * i + 1]! << 8) | data[channels * i + 2]!);
  return seen.size;
}

/**
 * Saves a full-page screenshot at 360 px and at 1280 px (test-artifacts/<name>-<width>.png) and
 * checks each shows a page (many colours), not a blank or single-colour screen.
 */
export async function screenshots(t: ExecutionContext, page: Page, name: string): Promise<void> {
  mkdirSync(artifactsDir, { recursive: true });
  const before = page.viewportSize();
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    const png = await page.screenshot({ path: `${artifactsDir}${name}-${width}.png`, fullPage: true });
    const colours = colourCount(png);
    t.true(colours > 8, `${name} at ${width} px shows a page (${colours} colours)`);
    // Nothing wider than the screen: the page reads on a phone without sideways scrolling.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    t.true(overflow <= 0, `${name} at ${width} px is ${overflow} px too wide`);
  }
  if (before) await page.setViewportSize(before);
}

/** Runs axe-core on the page: no serious or critical violation. */
export async function accessible(t: ExecutionContext, page: Page, name: string): Promise<void> {
  await page.evaluate(axeSource);
  const found = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run: (
            ctx: Document,
            opts: object,
          ) => Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[] }>;
        };
      }
    ).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      where: v.nodes.slice(0, 3).map((n) => n.target.join(' ')),
    }));
  });
  t.deepEqual(
    found.filter((v) => v.impact === 'serious' || v.impact === 'critical'),
    [],
    `${name}: serious accessibility violations`,
  );
}

/** Both checks of a main page. */
export async function checkPage(t: ExecutionContext, page: Page, name: string): Promise<void> {
  noScriptErrors(t, page);
  await accessible(t, page, name);
  await screenshots(t, page, name);
}

/**
 * The texts of what a locator finds, once they equal `expected` or after `timeoutMs`: a list that
 * re-renders (a filter applied, a refresh) is read when it has settled, and a wrong one still fails.
 */
export async function settledTexts(locator: Locator, expected: string[], timeoutMs = 5000): Promise<string[]> {
  const deadline = Date.now() + timeoutMs;
  let texts = await locator.allInnerTexts();
  while (JSON.stringify(texts) !== JSON.stringify(expected) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    texts = await locator.allInnerTexts();
  }
  return texts;
}
