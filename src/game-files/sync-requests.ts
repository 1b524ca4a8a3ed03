// How the web process asks for game-file syncs: a row per server and file in PostgreSQL, written in
// the transaction of the change that needs it (so a change and its request commit together). The
// worker drains them (src/game-files/sync-job.ts).
import type { Queryable } from '../store/db.ts';
import { insertAccountRequests, insertServerRequests } from './sync-requests.repo.ts';
import type { FileKind } from './sync-requests.repo.ts';

export const requestAccountSync = (db: Queryable, accountId: string, kind: FileKind | 'both', atIso: string) =>
  insertAccountRequests(db, accountId, kind === 'both' ? ['bans', 'priority'] : [kind], atIso);

export const requestServerSync = (db: Queryable, serverIds: string[], kind: FileKind | 'both', atIso: string) =>
  insertServerRequests(db, serverIds, kind === 'both' ? ['bans', 'priority'] : [kind], atIso);
