// Atomic replacement of a file (game files, the agent's state, chat roles, a trust mirror): the
// content goes to a temporary file in the same folder, is fsynced, renamed over the file, and the folder is fsynced so the rename itself
// survives a power cut. A reader sees the old file or the new one, never a part of one. Temporary
// files a killed writer left behind are removed before the next write.
import { randomBytes } from 'node:crypto';
import { open, readdir, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

const tempSuffix = '.sync-tmp';
const tempPrefix = (path: string) => `.${basename(path)}.`;
const isTempOf = (path: string, name: string) => name.startsWith(tempPrefix(path)) && name.endsWith(tempSuffix);

/** Removes temporary files of earlier writes of this file (a writer killed mid-write). Returns how many. */
export async function removeStaleTemps(path: string): Promise<number> {
  const dir = dirname(path);
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return 0;
  }
  const stale = names.filter((name) => isTempOf(path, name));
  for (const name of stale) await unlink(join(dir, name)).catch(() => undefined);
  return stale.length;
}

/**
 * `syncFolder: false` leaves the rename to the file system's own time: after a power cut the file
 * may be the previous one, for a file whose previous version is harmless (the agent's state: lines
 * sent again are duplicates by their event ids).
 */
export async function writeAtomically(path: string, content: string | Buffer, { mode = 0o644, syncFolder = true } = {}): Promise<void> {
  const dir = dirname(path);
  const temp = join(dir, `${tempPrefix(path)}${randomBytes(6).toString('hex')}${tempSuffix}`);
  const file = await open(temp, 'wx', mode);
  try {
    await file.writeFile(content);
    await file.sync();
  } catch (err) {
    await file.close().catch(() => undefined);
    await unlink(temp).catch(() => undefined);
    throw err;
  }
  await file.close();
  try {
    await rename(temp, path);
  } catch (err) {
    await unlink(temp).catch(() => undefined);
    throw err;
  }
  if (syncFolder) await syncDir(dir);
}

async function syncDir(dir: string): Promise<void> {
  // Some platforms (Windows) cannot open a folder for fsync; the rename is then as durable as they allow.
  const handle = await open(dir, 'r').catch(() => undefined);
  if (!handle) return;
  try {
    await handle.sync().catch(() => undefined);
  } finally {
    await handle.close();
  }
}
