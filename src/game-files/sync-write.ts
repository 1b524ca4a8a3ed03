// What a file sync does once the server's file was read (sync-read.ts): the first sync of a path
// imports what the file holds, the file is rendered from PostgreSQL, written when its content
// differs (atomically, under a time limit), and the sync recorded and audited. The ban file is
// rendered and recorded once for the servers of an account synced together; their files are
// written side by side, so one slow file holds up no other.
import { createHash } from 'node:crypto';
import type { Core } from '../core.ts';
import { inTransaction } from '../store/db.ts';
import type { DbClient } from '../store/db.ts';
import { insertAudit } from '../audit/audit.repo.ts';
import { parseBanFile, parsePriorityFile } from './ban-file.ts';
import { importBanFile, importPriorityFile } from './file-import.ts';
import { banFileChanges, lastSync, recordBanFile, saveSync } from './game-files.repo.ts';
import type { LastSync, SyncTarget } from './game-files.repo.ts';
import { writeHostFile } from './host-files.ts';
import { fileKey } from './host-path.ts';
import { renderBanFile, renderPriorityFile, withLineEnding } from './render.ts';
import type { RenderedFile } from './render.ts';
import type { OnDisk } from './sync-read.ts';
import type { FileKind } from './sync-requests.repo.ts';
import { withTimeLimit } from './time-limit.ts';

export interface SyncOutcome {
  serverId: string;
  kind: FileKind;
  /** The path recorded (the normal form), or null for a server whose agent pulls its files. */
  path: string | null;
  entries: number;
  /** The file on disk was replaced (false: it already held this content, or nothing is written on this host). */
  written: boolean;
  imported: number;
}

/** A server's file, read and ready to sync. */
export interface ReadFile {
  target: SyncTarget;
  disk: OnDisk;
}

const asError = (err: unknown) => (err instanceof Error ? err : new Error(String(err)));
const sha256 = (content: Buffer) => createHash('sha256').update(content).digest('hex');

/**
 * The path a sync records: the file's normal form. While files on this host are off, the last one
 * written stays recorded, so that turning them on again is not a first sync (whose import would
 * bring back the bans lifted meanwhile, still in the untouched file).
 */
const recordedPath = (disk: OnDisk, last: LastSync | undefined) => disk.file?.path ?? (disk.off ? (last?.path ?? null) : null);

/** Imports a file's hand-written entries when the service has never synced that file. */
async function importOnFirstSync(
  deps: Core,
  tx: DbClient,
  target: SyncTarget,
  kind: FileKind,
  disk: OnDisk,
  nowIso: string,
): Promise<number> {
  if (!disk.file || !disk.content) return 0;
  const last = await lastSync(tx, target.id, kind);
  // Recorded before paths had one normal form, an absolute path inside the folder is the same file.
  if (last?.path && fileKey(last.path, deps.config.gameFilesDir!) === disk.file.path.toLowerCase()) return 0;
  const text = disk.content.toString('utf8');
  if (kind === 'bans') return (await importBanFile(tx, target.accountId, target.id, parseBanFile(text).ids, nowIso)).length;
  return (await importPriorityFile(tx, target.accountId, target.id, parsePriorityFile(text).ids, nowIso)).length;
}

/** Writes the rendered file when what the server's file holds differs; true when written. */
async function writeIfChanged(deps: Core, disk: OnDisk, file: RenderedFile): Promise<boolean> {
  if (!disk.file || (disk.content && sha256(disk.content) === file.sha256)) return false;
  const write = writeHostFile(deps.config.gameFilesDir!, disk.file, file.content);
  await withTimeLimit(write, deps.config.gameFileSyncTimeoutMs, `writing ${disk.file.path}`);
  return true;
}

type BanFileChanges = (sinceIso: string | null) => Promise<{ added: number; removed: number }>;
const noChanges: BanFileChanges = async () => ({ added: 0, removed: 0 });

/**
 * Records the sync of a file (written, or found current) and audits it when anything changed.
 * `banChanges` tells what a ban file gains and loses since the server's last sync.
 */
async function record(
  deps: Core,
  tx: DbClient,
  read: ReadFile,
  kind: FileKind,
  file: RenderedFile,
  written: boolean,
  imported: number,
  nowIso: string,
  banChanges = noChanges,
): Promise<SyncOutcome> {
  const { target, disk } = read;
  const last = await lastSync(tx, target.id, kind);
  const path = recordedPath(disk, last);
  const recorded = await banChanges(last?.syncedAt ?? null);
  await saveSync(tx, target.id, kind, path, file.sha256, file.entries, nowIso);
  if (written || imported > 0 || recorded.added > 0 || recorded.removed > 0 || last?.sha256 !== file.sha256) {
    await insertAudit(tx, {
      accountId: target.accountId,
      at: nowIso,
      actorType: 'system',
      actorId: null,
      actorName: 'worker',
      action: 'files.sync',
      targetType: 'server',
      targetId: target.id,
      ip: null,
      details: { file: kind, path, entries: file.entries, written, imported, ...(kind === 'bans' ? recorded : {}) },
    });
  }
  deps.log.debug({ serverId: target.id, kind, path, entries: file.entries, written }, 'game file synced');
  return { serverId: target.id, kind, path, entries: file.entries, written, imported };
}

/**
 * Syncs the ban files of servers of one account: imports first, then one rendering for all. Each
 * server's result is its outcome or the error its file failed with (its sync record stays as it
 * was); an error of the whole (PostgreSQL) is thrown.
 */
export async function syncAccountBans(deps: Core, group: ReadFile[]): Promise<(SyncOutcome | Error)[]> {
  const nowIso = new Date(deps.clock.now()).toISOString();
  const imported = await inTransaction(deps.db, async (tx) => {
    const counts: number[] = [];
    for (const { target, disk } of group) counts.push(await importOnFirstSync(deps, tx, target, 'bans', disk, nowIso));
    return counts;
  });
  return inTransaction(deps.db, async (tx) => {
    // One snapshot: the rendered file and the sync records name the same bans.
    await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
    const accountId = group[0]!.target.accountId;
    const crlf = await renderBanFile(tx, accountId, nowIso, '\r\n');
    await recordBanFile(tx, accountId, nowIso);
    // The servers of a group were mostly synced together last time: one count per earlier sync time.
    const counted = new Map<string | null, { added: number; removed: number }>();
    const banChanges: BanFileChanges = async (sinceIso) => {
      if (!counted.has(sinceIso)) counted.set(sinceIso, await banFileChanges(tx, accountId, sinceIso));
      return counted.get(sinceIso)!;
    };
    let lf: RenderedFile | undefined;
    const files = group.map(({ disk }) => (disk.eol === '\r\n' ? crlf : (lf ??= withLineEnding(crlf, '\n'))));
    const writes = await Promise.allSettled(group.map(({ disk }, i) => writeIfChanged(deps, disk, files[i]!)));
    const results: (SyncOutcome | Error)[] = [];
    for (const [i, read] of group.entries()) {
      const write = writes[i]!;
      if (write.status === 'rejected') {
        results.push(asError(write.reason));
        continue;
      }
      // A record that meets another sync of this server fails alone; the others still commit.
      await tx.query('SAVEPOINT server_file');
      try {
        results.push(await record(deps, tx, read, 'bans', files[i]!, write.value, imported[i]!, nowIso, banChanges));
      } catch (err) {
        await tx.query('ROLLBACK TO SAVEPOINT server_file');
        results.push(asError(err));
      }
    }
    return results;
  });
}

export async function syncPriority(deps: Core, read: ReadFile): Promise<SyncOutcome> {
  const nowIso = new Date(deps.clock.now()).toISOString();
  return inTransaction(deps.db, async (tx) => {
    const imported = await importOnFirstSync(deps, tx, read.target, 'priority', read.disk, nowIso);
    const file = await renderPriorityFile(tx, read.target.accountId, read.target.id, nowIso);
    const written = await writeIfChanged(deps, read.disk, file);
    return record(deps, tx, read, 'priority', file, written, imported, nowIso);
  });
}
