// SQL of the group call: the common batches of several servers applied in one call
// (ingest_apply_claimed_batches, src/ingest/sql/apply-batches.sql), as
// applyBatchInOneCall (src/ingest/ingest.repo.ts) applies one.
import type { Queryable } from '../store/db.ts';
import type { ServerRecord } from '../servers/server.repo.ts';
import { serverRecordColumns } from '../servers/server.repo.ts';
import { pgArray } from '../store/pg-array.ts';
import type { ArrayElement, Column } from '../store/pg-array.ts';
import { addedTotals, needsTransaction } from './ingest.repo.ts';
import type { AppliedBatch, OneCallBatch } from './ingest.repo.ts';
import type { StoredPlayers } from './stored-players.ts';

/** A common batch of one server, as a group call takes it. */
export interface ServerBatch {
  serverId: string;
  batch: OneCallBatch;
}

/** The columns of every batch one after the other, led by the column of each row's batch (1-based). */
function stacked(parts: Column[][]): Column[] {
  const index: number[] = [];
  const columns: ArrayElement[][] = parts[0]!.map(() => []);
  parts.forEach((part, i) => {
    for (let r = 0; r < (part[0]?.length ?? 0); r++) index.push(i + 1);
    part.forEach((column, j) => {
      for (const value of column) columns[j]!.push(value);
    });
  });
  return [index, ...columns];
}

/** playerColumns of several batches as one: a player named by more than one widened as the upsert would. */
function mergedPlayers(parts: Column[][]): Column[] {
  const rows = new Map<string, ArrayElement[]>();
  for (const part of parts) {
    for (let r = 0; r < (part[0]?.length ?? 0); r++) {
      const row = part.map((column) => column[r]);
      const [id, , first, last] = row as [string, string, string, string];
      const known = rows.get(id);
      if (!known) rows.set(id, row);
      else rows.set(id, [id, last >= (known[3] as string) ? row[1] : known[1], first < (known[2] as string) ? first : known[2], last > (known[3] as string) ? last : known[3], known[4], known[5]]);
    }
  }
  const sorted = [...rows.keys()].sort().map((id) => rows.get(id)!);
  return parts[0]!.map((_, j) => sorted.map((row) => row[j]));
}

const statusColumns = (statuses: (Record<string, unknown> | null)[]): Column[] => {
  const field = (name: string) => statuses.map((s) => (s?.[name] ?? null) as ArrayElement);
  const metrics = statuses.map((s) => s !== null && (s.players !== undefined || s.fps !== undefined || s.uptimeSeconds !== undefined));
  return [field('at'), field('online'), field('map'), field('gameVersion'), metrics, field('players'), field('fps'), field('uptimeSeconds')];
};

const groupValues = (group: ServerBatch[]) => {
  const batches = group.map((g) => g.batch);
  return [
    group.map((g) => g.serverId), batches.map((b) => b.receivedAt), batches.map((b) => b.newestAt),
    ...statusColumns(batches.map((b) => b.status)),
    ...stacked(batches.map((b) => [b.eventIds, b.eventsSentAt])),
    ...stacked(batches.map((b) => b.kills)),
    ...stacked(batches.map((b) => [b.expected.ids, b.expected.tags])),
    ...stacked(batches.map((b) => b.save)),
    ...stacked(batches.map((b) => b.add)),
    ...stacked(batches.map((b) => b.samples)),
    [...new Set(batches.flatMap((b) => b.dayzIds))],
    ...mergedPlayers(batches.map((b) => b.players)),
  ].map(pgArray);
};

/**
 * Applies the common batches of several servers (one batch a server at most) in one call
 * (ingest_apply_claimed_batches, src/ingest/sql/apply-batches.sql). Answers per batch
 * what applyBatchInOneCall would, undefined for a batch whose present players' rows changed since
 * read; throws the call's error when it stored nothing (`needsOwnCall` tells whether each batch
 * sent on its own may still go through the one-call path).
 */
export async function applyBatchesInOneCall(db: Queryable, group: ServerBatch[], known: StoredPlayers): Promise<(AppliedBatch | undefined)[]> {
  const values = groupValues(group);
  const { rows } = await db.query<ServerRecord & { batch: number; added: string | null; orphans: string[] | null; storedPlayers: string | null; tag: string }>({
    name: 'ingest-apply-batches',
    text: `SELECT f.out_batch AS batch, f.out_added AS added, f.out_orphans AS orphans, f.out_players AS "storedPlayers",
             pg_current_xact_id()::xid::text AS tag, ${serverRecordColumns}
           FROM ingest_apply_claimed_batches(${values.map((_, i) => `$${i + 1}`).join(', ')}) AS f, LATERAL (SELECT (f.out_server).*) AS s`,
    values,
  });
  const orphans = rows[0]!.orphans!;
  known.setAll(rows[0]!.storedPlayers!);
  return rows.map(({ batch: _batch, added, orphans: _orphans, storedPlayers: _players, tag, ...server }) =>
    added === null ? undefined : { added: addedTotals(added), orphans, server, tag });
}

/** A group call's error after which each batch sent on its own may still take the one-call path (it stored nothing). */
export const needsOwnCall = (err: unknown) => needsTransaction.has((err as { code?: string }).code ?? '');
