// Builds the dashboard with Vite (web/ -> web/dist). `--if-stale` builds only when the build is
// missing or older than a source: npm ci (prepare), npm start, npm run demo and npm test run it so.
import process from 'node:process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'vite';
import { buildState, stampFile, webDir } from './build-state.ts';

const ifStale = process.argv.includes('--if-stale');
const state = buildState();
if (ifStale && state === 'fresh') process.exit(0);
const started = Date.now();
await build({ configFile: join(webDir, 'vite.config.ts') });
writeFileSync(stampFile, `${new Date().toISOString()}\n`);
process.stdout.write(`dashboard built into web/dist in ${((Date.now() - started) / 1000).toFixed(1)} s (${state === 'fresh' ? 'rebuilt on request' : `the build was ${state}`})\n`);
