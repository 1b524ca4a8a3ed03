// Whether the dashboard's build (web/dist) is there and newer than every source it comes from:
// web/'s pages, sources and public files, its Vite config, and the lockfile (a new Preact or Vite).
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const webDir = fileURLToPath(new URL('./', import.meta.url));
export const distDir = join(webDir, 'dist');
/** Written after a build completes: its time is the build's. */
export const stampFile = join(distDir, '.built');

const sources = ['src', 'public', 'index.html', 'player.html', 'vite.config.ts', 'tsconfig.json', '../package-lock.json'];

function newestMs(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((newest, name) => Math.max(newest, newestMs(join(path, name))), stat.mtimeMs);
}

export function buildState(): 'missing' | 'stale' | 'fresh' {
  if (!existsSync(stampFile)) return 'missing';
  const newestSource = Math.max(...sources.map((s) => newestMs(join(webDir, s))));
  return statSync(stampFile).mtimeMs >= newestSource ? 'fresh' : 'stale';
}
