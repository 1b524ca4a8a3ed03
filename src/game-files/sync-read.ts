// The first step of a server's file sync: what its file on the service's host holds now
// (docs/game-files.md). The stored path is checked again here, since the file system changed since it was accepted:
// inside GAME_FILES_DIR through real folders only, a regular file or nothing, at most 8 MiB, and
// named by no other live server (two servers never write one file). Without GAME_FILES_DIR no
// file on this host is read or written at all.
import type { Core } from '../core.ts';
import { liveServerFilePaths } from '../servers/server.repo.ts';
import { removeStaleTemps } from '../store/atomic-write.ts';
import { defaultLineEnding, lineEndingOf } from './ban-file.ts';
import type { LineEnding } from './ban-file.ts';
import type { SyncTarget } from './game-files.repo.ts';
import { HostFileRefused, locateHostFile, readHostFile } from './host-files.ts';
import type { HostFile } from './host-files.ts';
import { fileKey } from './host-path.ts';
import type { FileKind } from './sync-requests.repo.ts';

export interface OnDisk {
  /** The server's file on this host; null when it has no path, or when files on this host are off. */
  file: HostFile | null;
  /** The server has a path but GAME_FILES_DIR is unset: its file is neither read nor written. */
  off: boolean;
  content: Buffer | undefined;
  eol: LineEnding;
}

export const pathOf = (target: SyncTarget, kind: FileKind) => (kind === 'bans' ? target.banFilePath : target.priorityFilePath);

const nothing = (off: boolean): OnDisk => ({ file: null, off, content: undefined, eol: defaultLineEnding });

/** How many files of live servers (ban and priority files alike) each file key names. */
export async function filesInUse(deps: Core, root: string): Promise<Map<string, number>> {
  const uses = new Map<string, number>();
  for (const path of await liveServerFilePaths(deps.db)) {
    const key = fileKey(path, root);
    if (key !== undefined) uses.set(key, (uses.get(key) ?? 0) + 1);
  }
  return uses;
}

// Said once per process and file, not at every sync: the operator chose this.
const saidOff = new Set<string>();

function sayOff(deps: Core, target: SyncTarget, kind: FileKind, path: string): void {
  const key = `${target.id}:${kind}`;
  if (saidOff.has(key)) return;
  saidOff.add(key);
  deps.log.warn(
    { serverId: target.id, kind, path },
    "files on the service's host are off (GAME_FILES_DIR is not set): this server's file there is neither read nor written; its agent keeps the file on the game host",
  );
}

/** Reads the server's file of this kind (throws HostFileRefused for a path the rules refuse). */
export async function readServerFile(
  deps: Core,
  target: SyncTarget,
  kind: FileKind,
  inUse: () => Promise<Map<string, number>>,
): Promise<OnDisk> {
  const stored = pathOf(target, kind);
  if (!stored) return nothing(false);
  const root = deps.config.gameFilesDir;
  if (!root) {
    sayOff(deps, target, kind, stored);
    return nothing(true);
  }
  const file = await locateHostFile(root, stored);
  if (((await inUse()).get(file.path.toLowerCase()) ?? 0) > 1)
    throw new HostFileRefused(`${file.path} is named by another server's file path too: two servers never write one file`);
  await removeStaleTemps(file.absolute);
  const content = await readHostFile(file);
  return { file, off: false, content, eol: (content && lineEndingOf(content.toString('utf8'))) ?? defaultLineEnding };
}
