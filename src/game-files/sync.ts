// Syncs servers' game files (DESIGN 9): renders what PostgreSQL holds, writes it atomically to the
// server's configured path (when it has one: a remote host pulls the same rendering instead), records
// what the account's ban file holds (ban_file_entries: with each server's sync time, what the Data
// API lists), and audits every sync that changed a file. The ban file is rendered and recorded once
// per account and written to each of its servers.
// Runs in the worker only: the web process asks for syncs (sync-requests.ts).
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';
import type { Deps } from '../deps.ts';
import { inTransaction } from '../store/db.ts';
import type { DbClient } from '../store/db.ts';
import { insertAudit } from '../audit/audit.repo.ts';
import { defaultLineEnding, lineEndingOf, parseBanFile, parsePriorityFile } from './ban-file.ts';
import type { LineEnding } from './ban-file.ts';
import { removeStaleTemps, writeAtomically } from './atomic-write.ts';
import { importBanFile, importPriorityFile } from './file-import.ts';
import { banFileChanges, lastSync, recordBanFile, saveSync, syncTargets } from './game-files.repo.ts';
import type { SyncTarget } from './game-files.repo.ts';
import { renderBanFile, renderPriorityFile, withLineEnding } from './render.ts';
import type { RenderedFile } from './render.ts';
import type { FileKind } from './sync-requests.repo.ts';

export interface SyncOutcome {
  serverId: string;
  kind: FileKind;
  path: string | null;
  entries: number;
  /** The file on disk was replaced (false: it already held this content, or the server has no path). */
  written: boolean;
  imported: number;
}

interface OnDisk {
  content: Buffer | undefined;
  eol: LineEnding;
}

async function readOnDisk(path: string | null): Promise<OnDisk> {
  if (!path) return { content: undefined, eol: defaultLineEnding };
  await removeStaleTemps(path);
  const content = await readFile(path).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return undefined;
    throw err;
  });
  return { content, eol: (content && lineEndingOf(content.toString('utf8'))) ?? defaultLineEnding };
}

const sha256 = (content: Buffer) => createHash('sha256').update(content).digest('hex');
const pathOf = (target: SyncTarget, kind: FileKind) => (kind === 'bans' ? target.banFilePath : target.priorityFilePath);

/** Imports a file's hand-written entries when the service has never synced that path. */
async function importOnFirstSync(tx: DbClient, target: SyncTarget, kind: FileKind, disk: OnDisk, nowIso: string): Promise<number> {
  const path = pathOf(target, kind);
  if (!path || !disk.content) return 0;
  const last = await lastSync(tx, target.id, kind);
  if (last && last.path === path) return 0;
  const text = disk.content.toString('utf8');
  if (kind === 'bans') return (await importBanFile(tx, target.accountId, target.id, parseBanFile(text).ids, nowIso)).length;
  return (await importPriorityFile(tx, target.accountId, target.id, parsePriorityFile(text).ids, nowIso)).length;
}

type BanFileChanges = (sinceIso: string | null) => Promise<{ added: number; removed: number }>;
const noChanges: BanFileChanges = async () => ({ added: 0, removed: 0 });

/**
 * Writes the rendered file when its content differs from what is on disk; records the sync.
 * `banChanges` tells what a ban file gains and loses since the server's last sync.
 */
async function place(deps: Deps, tx: DbClient, target: SyncTarget, kind: FileKind, file: RenderedFile, disk: OnDisk, imported: number, nowIso: string, banChanges = noChanges): Promise<SyncOutcome> {
  const path = pathOf(target, kind);
  const written = path !== null && (!disk.content || sha256(disk.content) !== file.sha256);
  if (written) await writeAtomically(path, file.content);
  const last = await lastSync(tx, target.id, kind);
  const recorded = await banChanges(last?.syncedAt ?? null);
  await saveSync(tx, target.id, kind, path, file.sha256, file.entries, nowIso);
  if (written || imported > 0 || recorded.added > 0 || recorded.removed > 0 || last?.sha256 !== file.sha256) {
    await insertAudit(tx, {
      accountId: target.accountId, at: nowIso, actorType: 'system', actorId: null, actorName: 'worker', action: 'files.sync',
      targetType: 'server', targetId: target.id, ip: null,
      details: { file: kind, path, entries: file.entries, written, imported, ...(kind === 'bans' ? recorded : {}) },
    });
  }
  deps.log.debug({ serverId: target.id, kind, path, entries: file.entries, written }, 'game file synced');
  return { serverId: target.id, kind, path, entries: file.entries, written, imported };
}

/** A file that did not sync; `overlapped`: it met another sync of the same file. */
type Failure = { serverId: string; kind: FileKind; error: string; overlapped: boolean };

/**
 * What two syncs of one file running at once fail with: the REPEATABLE READ snapshot's
 * serialisation, a deadlock, or a unique index (the one-open-entry index, a first sync's imports).
 * Such a failure is expected and tried again; any other is the file's own (a path not writable).
 */
const overlapCodes = new Set(['40001', '40P01', '23505']);
/** Tries of a file whose syncs met others, and the wait before the next (100 ms, then 200, 300). */
const overlapTries = 4;
const overlapWaitMs = 100;

/** Logs a failed sync once (a warning for an overlap, an error for the file's own); true for an overlap. */
function logFailure(deps: Deps, err: unknown, context: Record<string, unknown>): boolean {
  const overlapped = overlapCodes.has((err as { code?: string }).code ?? '');
  if (overlapped) deps.log.warn({ err, ...context }, 'game file sync met another sync of the file');
  else deps.log.error({ err, ...context }, 'game file sync failed');
  return overlapped;
}

function failure(deps: Deps, serverId: string, kind: FileKind, err: unknown, path: string | null): Failure {
  return { serverId, kind, error: (err as Error).message, overlapped: logFailure(deps, err, { serverId, kind, path }) };
}

/**
 * Syncs the ban files of servers of one account: imports first, then one rendering for all. A
 * server whose file cannot be written is reported and its sync records stay as they were.
 */
async function syncAccountBans(deps: Deps, targets: SyncTarget[], failed: Failure[]): Promise<SyncOutcome[]> {
  const nowIso = new Date(deps.clock.now()).toISOString();
  const disks = await Promise.all(targets.map((t) => readOnDisk(t.banFilePath)));
  const imported = await inTransaction(deps.db, async (tx) => {
    const counts: number[] = [];
    for (const [i, target] of targets.entries()) counts.push(await importOnFirstSync(tx, target, 'bans', disks[i]!, nowIso));
    return counts;
  });
  return inTransaction(deps.db, async (tx) => {
    // One snapshot: the rendered file and the sync records name the same bans.
    await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
    const accountId = targets[0]!.accountId;
    const crlf = await renderBanFile(tx, accountId, nowIso, '\r\n');
    await recordBanFile(tx, accountId, nowIso);
    // The servers of a group were mostly synced together last time: one count per earlier sync time.
    const counted = new Map<string | null, { added: number; removed: number }>();
    const banChanges: BanFileChanges = async (sinceIso) => {
      if (!counted.has(sinceIso)) counted.set(sinceIso, await banFileChanges(tx, accountId, sinceIso));
      return counted.get(sinceIso)!;
    };
    let lf: RenderedFile | undefined;
    const outcomes: SyncOutcome[] = [];
    for (const [i, target] of targets.entries()) {
      const file = disks[i]!.eol === '\r\n' ? crlf : (lf ??= withLineEnding(crlf, '\n'));
      await tx.query('SAVEPOINT server_file');
      try {
        outcomes.push(await place(deps, tx, target, 'bans', file, disks[i]!, imported[i]!, nowIso, banChanges));
      } catch (err) {
        await tx.query('ROLLBACK TO SAVEPOINT server_file');
        failed.push(failure(deps, target.id, 'bans', err, target.banFilePath));
      }
    }
    return outcomes;
  });
}

async function syncPriority(deps: Deps, target: SyncTarget): Promise<SyncOutcome> {
  const nowIso = new Date(deps.clock.now()).toISOString();
  const disk = await readOnDisk(target.priorityFilePath);
  return inTransaction(deps.db, async (tx) => {
    const imported = await importOnFirstSync(tx, target, 'priority', disk, nowIso);
    const file = await renderPriorityFile(tx, target.accountId, target.id, nowIso);
    return place(deps, tx, target, 'priority', file, disk, imported, nowIso);
  });
}

type SyncRequest = { serverId: string; kind: FileKind };

/**
 * Syncs the given files of the given servers (revoked or unknown servers are skipped). A file
 * that fails is reported in `failed` and the others still sync; one that met another sync of the
 * same file (the worker's start-up job, a restart command, another worker) is tried again first,
 * so every caller gets the file synced unless the overlap outlasts the tries.
 */
export async function syncGameFiles(deps: Deps, requests: SyncRequest[]): Promise<{ synced: SyncOutcome[]; failed: Failure[] }> {
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

async function syncOnce(deps: Deps, requests: SyncRequest[]): Promise<{ synced: SyncOutcome[]; failed: Failure[] }> {
  const targets = new Map((await syncTargets(deps.db, [...new Set(requests.map((r) => r.serverId))])).map((t) => [t.id, t]));
  const synced: SyncOutcome[] = [];
  const failed: Failure[] = [];
  const byAccount = new Map<string, SyncTarget[]>();
  for (const r of requests) {
    const target = targets.get(r.serverId);
    if (!target) continue;
    if (r.kind === 'bans') {
      const group = byAccount.get(target.accountId) ?? [];
      if (!group.includes(target)) group.push(target);
      byAccount.set(target.accountId, group);
    }
  }
  for (const group of byAccount.values()) {
    try {
      synced.push(...(await syncAccountBans(deps, group, failed)));
    } catch (err) {
      const overlapped = logFailure(deps, err, { kind: 'bans', servers: group.map((t) => t.id) });
      failed.push(...group.map((t) => ({ serverId: t.id, kind: 'bans' as const, error: (err as Error).message, overlapped })));
    }
  }
  for (const r of requests) {
    const target = targets.get(r.serverId);
    if (!target || r.kind !== 'priority') continue;
    try {
      synced.push(await syncPriority(deps, target));
    } catch (err) {
      failed.push(failure(deps, target.id, 'priority', err, target.priorityFilePath));
    }
  }
  return { synced, failed };
}
