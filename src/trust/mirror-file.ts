// The reference client's mirror file: read (or start empty), and written atomically
// (src/store/atomic-write.ts), so an interrupted run leaves the previous, consistent mirror behind.
import { readFile } from 'node:fs/promises';
import { writeAtomically } from '../store/atomic-write.ts';
import { emptyMirror, MirrorError, syncMirror } from './mirror.ts';
import type { MirrorOptions, MirrorState } from './mirror.ts';

export async function readMirror(path: string, url: string): Promise<MirrorState> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return emptyMirror(url);
    throw err;
  }
  const state = JSON.parse(text) as MirrorState;
  if (state.source !== url) throw new MirrorError(`${path} mirrors ${state.source}, not ${url}`);
  return state;
}

export async function writeMirror(path: string, state: MirrorState): Promise<void> {
  await writeAtomically(path, `${JSON.stringify(state, null, 2)}\n`);
}

/** One run of `trust mirror`: load, follow the feed, save. */
export async function mirrorToFile(
  path: string,
  options: MirrorOptions,
): Promise<{ pages: number; rows: number; bans: number; syncedThrough: string | null }> {
  const state = await readMirror(path, options.url);
  const { pages, rows } = await syncMirror(state, options);
  await writeMirror(path, state);
  return { pages, rows, bans: Object.keys(state.bans).length, syncedThrough: state.syncedThrough };
}
