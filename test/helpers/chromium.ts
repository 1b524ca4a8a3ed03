// Debian's Chromium driven by playwright-core, launched so that a test process which ava ends (a
// timeout) ends at once, Chromium with it. Apart from the rest of the e2e helpers: the check that a
// stuck end-to-end test fails the run imports this alone.
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import type { Browser } from 'playwright-core';
import { buildState } from '../../web/build-state.ts';

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** As root and offline, Chromium needs these: no sandbox, no GPU, and no background connections it would wait on. */
const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Fails (never skips) when the browser or the dashboard's build is missing: the e2e tests must run. */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(chromiumPath)) {
    throw new Error(
      `Chromium not found at ${chromiumPath}: the end-to-end tests need it. Install Debian's package ` +
        '(apt-get install -y --no-install-recommends chromium) or point CHROMIUM_PATH at a Chromium binary.',
    );
  }
  const state = buildState();
  if (state !== 'fresh') throw new Error(`the dashboard build is ${state}: run \`npm run build:web\` (npm test builds it first)`);
  // Playwright's own signal handlers would close the browser on SIGTERM and leave the process
  // running: the SIGTERM ava sends a test process that timed out then ended nothing (its service
  // still listened, its pools stayed open) and the run waited on it for ever. Without them the
  // process ends at once, and Chromium with it (its pipe to the process closes).
  return chromium.launch({
    executablePath: chromiumPath,
    args: chromiumArgs,
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
}
