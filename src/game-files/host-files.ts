// Servers' game files on the service's host, inside GAME_FILES_DIR only (docs/game-files.md). A stored path
// is re-checked against the file system every time, since it changes after the path was accepted:
// every folder on the way must be a real folder (no symlink) inside GAME_FILES_DIR, and the file a
// regular file or nothing yet. Reads never follow a symlink, never block (a FIFO), and never take
// more than 8 MiB; writes go only into a folder just verified. What breaks a rule is refused with
// a HostFileRefused: for the web process a 400, for the worker a failed sync.
import { constants } from 'node:fs';
import type { Stats } from 'node:fs';
import { lstat, open, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { writeAtomically } from '../store/atomic-write.ts';
import { hostFilePath } from './host-path.ts';

export const maxReadBytes = 8 * 1024 * 1024;
const readChunkBytes = 64 * 1024;
// Windows lacks both flags; there a symlink or FIFO is still refused by the checks around the open.
const readFlags = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/** A path the file system rules refuse: never read, never written. */
export class HostFileRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HostFileRefused';
  }
}

export interface HostFile {
  /** The normal form of the path, relative to GAME_FILES_DIR. */
  path: string;
  /** Where it is: GAME_FILES_DIR's real path, then real folders only. */
  absolute: string;
}

const isMissing = (err: unknown) => ['ENOENT', 'ENOTDIR'].includes((err as NodeJS.ErrnoException).code ?? '');

function kindOf(st: Stats): string {
  if (st.isSymbolicLink()) return 'a symlink';
  if (st.isDirectory()) return 'a folder';
  if (st.isFIFO()) return 'a FIFO';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  if (st.isSocket()) return 'a socket';
  return 'not a regular file';
}

/**
 * Where a stored path leads inside GAME_FILES_DIR (`root`): each folder on the way is checked with
 * lstat to be a folder and no symlink, so the place is inside the folder's real path.
 */
export async function locateHostFile(root: string, stored: string): Promise<HostFile> {
  const normal = hostFilePath(stored, root);
  if (!normal.ok) throw new HostFileRefused(normal.reason);
  let at: string;
  try {
    at = await realpath(root);
  } catch (err) {
    throw new HostFileRefused(`GAME_FILES_DIR cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  const parts = normal.path.split('/');
  for (const [i, part] of parts.slice(0, -1).entries()) {
    at = join(at, part);
    const shown = parts.slice(0, i + 1).join('/');
    const st = await lstat(at).catch((err: unknown) => {
      if (isMissing(err))
        throw new HostFileRefused(`the folder ${shown} does not exist in GAME_FILES_DIR (the service creates no folders)`);
      throw err;
    });
    if (!st.isDirectory()) throw new HostFileRefused(`${shown} is ${kindOf(st)}, not a folder`);
  }
  return { path: normal.path, absolute: join(at, parts.at(-1)!) };
}

/** What is at the file's place: nothing yet (undefined), or a regular file of at most 8 MiB. */
async function checkPlace(file: HostFile): Promise<Stats | undefined> {
  const st = await lstat(file.absolute).catch((err: unknown) => {
    if (isMissing(err)) return undefined;
    throw err;
  });
  if (st && !st.isFile()) throw new HostFileRefused(`${file.path} is ${kindOf(st)}, not a regular file`);
  if (st && st.size > maxReadBytes) throw tooBig(file);
  return st;
}

const tooBig = (file: HostFile) => new HostFileRefused(`${file.path} is larger than 8 MiB: not read`);

/** A path as the web process takes it: inside the folder, its folders there, and no other kind of file. */
export async function confineHostFile(root: string, raw: string): Promise<HostFile> {
  const file = await locateHostFile(root, raw);
  await checkPlace(file);
  return file;
}

/**
 * The file's content, or undefined when there is none yet. Opened without following a symlink and
 * without waiting on a FIFO, checked again on the open handle, read up to 8 MiB and no further.
 */
export async function readHostFile(file: HostFile): Promise<Buffer | undefined> {
  if (!(await checkPlace(file))) return undefined;
  let handle;
  try {
    handle = await open(file.absolute, readFlags);
  } catch (err) {
    if (isMissing(err)) return undefined;
    if ((err as NodeJS.ErrnoException).code === 'ELOOP') throw new HostFileRefused(`${file.path} is a symlink, not a regular file`);
    throw err;
  }
  try {
    const st = await handle.stat();
    if (!st.isFile()) throw new HostFileRefused(`${file.path} is ${kindOf(st)}, not a regular file`);
    if (st.size > maxReadBytes) throw tooBig(file);
    // The size may change while reading: the cap holds whatever fstat said.
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.alloc(readChunkBytes);
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, total);
      if (bytesRead === 0) break;
      total += bytesRead;
      if (total > maxReadBytes) throw tooBig(file);
      chunks.push(chunk.subarray(0, bytesRead));
    }
    return Buffer.concat(chunks, total);
  } finally {
    await handle.close();
  }
}

/** Replaces the file atomically, after checking again that its folder is the verified one and its place no other kind of file. */
export async function writeHostFile(root: string, file: HostFile, content: string | Buffer): Promise<void> {
  const again = await locateHostFile(root, file.path);
  if (again.absolute !== file.absolute) throw new HostFileRefused(`${file.path} moved while it was synced`);
  await checkPlace(again);
  await writeAtomically(again.absolute, content);
}
