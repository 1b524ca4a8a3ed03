// Who may set a server's game-file paths, and which (docs/game-files.md). Files on the service's host exist
// only when the operator sets GAME_FILES_DIR; only holders of accounts.manage (the network
// operator's owners) name a path; a path leads inside that folder, through real folders, to a
// regular file or to none yet, and no other live server uses that file. Clearing a path (null)
// needs only servers.manage: like revoking the server, it only stops the service touching a file.
import type { Core } from '../core.ts';
import { ApiError, badRequest } from '../http/errors.ts';
import { HostFileRefused, confineHostFile } from '../game-files/host-files.ts';
import { fileKey } from '../game-files/host-path.ts';
import { liveServerFilePaths } from './server.repo.ts';

export interface FilePaths {
  banFilePath?: string | null;
  priorityFilePath?: string | null;
}

const kinds = ['banFilePath', 'priorityFilePath'] as const;

export const filesOff =
  "files on the service's host are off (the operator has not set GAME_FILES_DIR): the server's agent keeps " +
  'ban.txt and priority.txt on the game host (npm run agent -- ... --files <folder>)';
const operatorsOnly =
  "only the network operator's owners (accounts.manage) set file paths on the service's host; the server's agent " +
  'keeps its ban.txt and priority.txt on the game host (--files)';

/**
 * The body with its file paths checked and in their normal form (fields absent stay absent).
 * `mayName`: the caller holds accounts.manage (or is the operator's CLI). `server`: the server
 * changed, with its stored paths (undefined for a new one).
 */
export async function checkedFilePaths<T extends FilePaths>(
  deps: Core,
  mayName: boolean,
  body: T,
  server?: FilePaths & { id: string },
): Promise<T> {
  const named = kinds.filter((k) => typeof body[k] === 'string');
  if (named.length === 0) return body;
  const root = deps.config.gameFilesDir;
  if (!root) throw badRequest(filesOff);
  if (!mayName) throw new ApiError('FORBIDDEN', operatorsOnly);
  const checked = { ...body };
  for (const k of named) {
    try {
      checked[k] = (await confineHostFile(root, body[k]!)).path;
    } catch (err) {
      if (err instanceof HostFileRefused) throw badRequest(`${k}: ${err.message}`);
      throw err;
    }
  }
  const [ban, priority] = kinds.map((k) => (k in checked ? checked[k] : server?.[k]) ?? null);
  if (ban && priority && fileKey(ban, root) === fileKey(priority, root))
    throw badRequest('banFilePath and priorityFilePath name one file: each needs a file of its own');
  const taken = new Set((await liveServerFilePaths(deps.db, server?.id ?? null)).map((p) => fileKey(p, root)));
  for (const k of named) {
    if (taken.has(checked[k]!.toLowerCase()))
      throw new ApiError('CONFLICT', `${k}: another server already uses ${checked[k]!}; two servers never write one file`);
  }
  return checked;
}

/** The 409 for a file another server took meanwhile (the database's own check), else the error as it was. */
export function fileConflictOf(err: unknown): unknown {
  const { code, constraint } = err as { code?: string; constraint?: string };
  return code === '23505' && constraint === 'servers_file_path_unique'
    ? new ApiError('CONFLICT', 'another server already uses that file; two servers never write one file')
    : err;
}
