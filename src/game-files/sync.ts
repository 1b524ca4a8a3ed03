// Syncs servers' game files (docs/game-files.md): renders what PostgreSQL holds, writes it atomically to
// the server's file on the service's host when it has one inside GAME_FILES_DIR (a remote host's
// agent pulls the same rendering instead), records what the account's ban file holds
// (ban_file_entries: with each server's sync time, what the Data API lists), and audits every sync
// that changed a file.
// Each server's file is read apart, under a time limit, and written under one: a file that stalls,
// blocks or is refused fails that file's sync alone; the others go on (sync-read.ts, sync-write.ts,
// ban-batches.ts). Runs in the worker only: the web process asks for syncs (sync-requests.ts).
import { setTimeout as delay } from 'node:timers/promises';
import type { Core } from '../core.ts';
import { BanBatches } from './ban-batches.ts';
import { syncTargets } from './game-files.repo.ts';
import type { SyncTarget } from './game-files.repo.ts';
import { HostFileRefused } from './host-files.ts';
import { filesInUse, pathOf, readServerFile } from './sync-read.ts';
import { syncPriority } from './sync-write.ts';
import type { SyncOutcome } from './sync-write.ts';
import type { FileKind } from './sync-requests.repo.ts';
import { TimedOut, eachBounded, withTimeLimit } from './time-limit.ts';

export type { SyncOutcome } from './sync-write.ts';

/**
 * A file that did not sync. `overlapped`: it met another sync of the same file (tried again);
 * `refused`: its path breaks a rule of files on the service's host; `timedOut`: its read or write
 * outlasted the time limit (that work may still be running).
 */
export interface Failure {
  serverId: string;
  accountId: string;
  kind: FileKind;
  /** The server's path as stored. */
  path: string | null;
  error: string;
  overlapped: boolean;
  refused: boolean;
  timedOut: boolean;
}

/**
 * What two syncs of one file running at once fail with: the REPEATABLE READ snapshot's
 * serialisation, a deadlock, or a unique index (the one-open-entry index, a first sync's imports).
 * Such a failure is expected and tried again; any other is the file's own (a path not writable).
 */
const overlapCodes = new Set(['40001', '40P01', '23505']);
/** Tries of a file whose syncs met others, and the wait before the next (100 ms, then 200, 300). */
const overlapTries = 4;
const overlapWaitMs = 100;
/** Files read (and priority files synced) at once: enough that a few stalled ones leave room for the rest. */
const readsAtOnce = 16;

/** Logs a failed sync once (a warning for an overlap, an error for the file's own); true for an overlap. */
function logFailure(deps: Core, err: unknown, context: Record<string, unknown>): boolean {
  const overlapped = overlapCodes.has((err as { code?: string }).code ?? '');
  if (overlapped) deps.log.warn({ err, ...context }, 'game file sync met another sync of the file');
  else deps.log.error({ err, ...context }, 'game file sync failed');
  return overlapped;
}

function failure(deps: Core, target: SyncTarget, kind: FileKind, err: unknown): Failure {
  const path = pathOf(target, kind);
  const overlapped = logFailure(deps, err, { serverId: target.id, kind, path });
  return {
    serverId: target.id,
    accountId: target.accountId,
    kind,
    path,
    error: (err as Error).message,
    overlapped,
    refused: err instanceof HostFileRefused,
    timedOut: err instanceof TimedOut,
  };
}

type SyncRequest = { serverId: string; kind: FileKind };

/**
 * Syncs the given files of the given servers (revoked or unknown servers are skipped). A file
 * that fails is reported in `failed` and the others still sync; one that met another sync of the
 * same file (the worker's start-up job, another worker) is tried again first, so every caller gets
 * the file synced unless the overlap outlasts the tries.
 */
export async function syncGameFiles(deps: Core, requests: SyncRequest[]): Promise<{ synced: SyncOutcome[]; failed: Failure[] }> {
  const synced: SyncOutcome[] = [];
  const failed: Failure[] = [];
  let pending = requests;
  for (let tried = 1; ; tried++) {
    const round = await syncOnce(deps, pending);
    synced.push(...round.synced);
    const again = round.failed.filter((f) => f.overlapped);
    failed.push(...round.failed.filter((f) => !f.overlapped));
    if (again.length === 0 || tried === overlapTries) return { synced, failed: [...failed, ...again] };
    await delay(overlapWaitMs * tried);
    pending = again.map(({ serverId, kind }) => ({ serverId, kind }));
  }
}

async function syncOnce(deps: Core, requests: SyncRequest[]): Promise<{ synced: SyncOutcome[]; failed: Failure[] }> {
  const targets = new Map((await syncTargets(deps.db, [...new Set(requests.map((r) => r.serverId))])).map((t) => [t.id, t]));
  const seen = new Set<string>();
  const files = requests.flatMap(({ serverId, kind }) => {
    const target = targets.get(serverId);
    if (!target || seen.has(`${serverId}:${kind}`)) return [];
    seen.add(`${serverId}:${kind}`);
    return [{ target, kind }];
  });
  const batches = new BanBatches(
    deps,
    files.filter((f) => f.kind === 'bans').map((f) => f.target.accountId),
  );
  const root = deps.config.gameFilesDir;
  let inUse: Promise<Map<string, number>> | undefined;
  const uses = () => (inUse ??= filesInUse(deps, root!));
  const synced: SyncOutcome[] = [];
  const failed: Failure[] = [];
  const finished: Promise<void>[] = [];
  await eachBounded(files, readsAtOnce, async ({ target, kind }) => {
    let disk;
    try {
      disk = await withTimeLimit(
        readServerFile(deps, target, kind, uses),
        deps.config.gameFileSyncTimeoutMs,
        `reading ${pathOf(target, kind)}`,
      );
    } catch (err) {
      if (kind === 'bans') batches.skip(target.accountId);
      failed.push(failure(deps, target, kind, err));
      return;
    }
    const sync = kind === 'bans' ? batches.sync({ target, disk }) : syncPriority(deps, { target, disk });
    const done = sync.then(
      (outcome) => void synced.push(outcome),
      (err: unknown) => void failed.push(failure(deps, target, kind, err)),
    );
    // A ban file frees its lane at once (it waits for its account's others to be read); a priority
    // file, synced alone, keeps it, so the files in memory stay bounded.
    if (kind === 'bans') finished.push(done);
    else await done;
  });
  await Promise.all(finished);
  return { synced, failed };
}
