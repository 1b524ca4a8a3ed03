// Whether the dashboard's build (web/dist) is there and newer than every source it comes from:
// web/'s pages, sources and public files, its Vite config, and the lockfile (a new Preact or Vite).
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildState as stateOf } from '../scripts/stale.ts';
import type { BuildState } from '../scripts/stale.ts';

export const webDir = fileURLToPath(new URL('./', import.meta.url));
export const distDir = join(webDir, 'dist');
/** Written after a build completes: its time is the build's. */
export const stampFile = join(distDir, '.built');

const sources = ['src', 'public', 'index.html', 'player.html', 'vite.config.ts', 'tsconfig.json', '../package-lock.json'];

export const buildState = (): BuildState =>
  stateOf(
    stampFile,
    sources.map((s) => join(webDir, s)),
  );
