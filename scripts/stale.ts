// Whether a build is missing, stale or fresh: its stamp file (written when it completes) against the
// newest of the sources it comes from, by modification time, folders searched all the way down.
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export type BuildState = 'missing' | 'stale' | 'fresh';

function newestMs(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((newest, name) => Math.max(newest, newestMs(join(path, name))), stat.mtimeMs);
}

export function buildState(stamp: string, sources: string[]): BuildState {
  if (!existsSync(stamp)) return 'missing';
  return statSync(stamp).mtimeMs >= Math.max(...sources.map(newestMs)) ? 'fresh' : 'stale';
}

export function writeStamp(stamp: string): void {
  writeFileSync(stamp, `${new Date().toISOString()}\n`);
}
