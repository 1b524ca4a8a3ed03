// The priority queue (VIP) of an account: one entry per player and scope (every server,
// or a set of servers); adding again extends the entry. Every change is audited in its transaction
// and asks for the priority files of the servers concerned to be synced; an entry added or extended
// is a queue.granted event for the account's webhooks, in the same transaction. An entry naming a Steam64
// whose DayZ ID is still a player of its own merges that player (docs/api.md, Player ids).
import type { Core } from '../core.ts';
import type { ServerReadDeps } from '../stats/server-reads.ts';
import type { TrustDeps } from '../trust/lookup.ts';
import type { QueueEntry as QueueEntryAnswer, QueueEntryCreate, QueueEntryUpdate } from '../http/schema-types.ts';
import { inTransaction } from '../store/db.ts';
import type { Queryable } from '../store/db.ts';
import { insertAudit } from '../audit/audit.repo.ts';
import { isSteam64 } from '../identities/id-forms.ts';
import type { Actor } from '../audit/actor.ts';
import { canonicalPlatformId, mergeOrphanDayzId } from '../bans/bans.ts';
import { liveServerIdsOf } from '../servers/server.repo.ts';
import { requestAccountSync, requestServerSync } from '../game-files/sync-requests.ts';
import { deleteQueueEntry, lockQueueEntry, updateQueueEntry, upsertQueueEntry } from './queue.repo.ts';
import type { QueueChange, QueueEntry } from './queue.repo.ts';
import { queueEvent } from '../webhooks/outbox.repo.ts';

/** A new entry as the controller sends it; the store's products name their servers as a list that may be empty. */
export type QueueInput = Omit<QueueEntryCreate, 'serverIds'> & { serverIds?: string[] | null };

/** A serverIds list naming a server the account does not have (or a revoked one). */
export class UnknownServers extends Error {}

const iso = (ms: number) => new Date(ms).toISOString();

async function auditQueue(
  db: Queryable,
  entry: QueueEntry,
  atIso: string,
  actor: Actor,
  action: string,
  details: Record<string, unknown>,
): Promise<void> {
  await insertAudit(db, {
    accountId: entry.accountId,
    at: atIso,
    actorType: actor.type === 'store' ? 'system' : actor.type,
    actorId: actor.id,
    actorName: actor.name,
    action,
    targetType: 'queue-entry',
    targetId: entry.id,
    ip: actor.ip ?? null,
    details: { platformId: entry.platformId, ...details },
  });
}

/** Asks for the priority files the entry's scope covers to be synced. */
export const requestEntrySync = (db: Queryable, entry: Pick<QueueEntry, 'accountId' | 'serverIds'>, atIso: string) =>
  entry.serverIds === null
    ? requestAccountSync(db, entry.accountId, 'priority', atIso)
    : requestServerSync(db, entry.serverIds, 'priority', atIso);

/** A queue input checked against the account: its scope's servers are live, its player id canonical. */
export interface ResolvedQueueInput extends Omit<QueueInput, 'serverIds' | 'expiresAt'> {
  serverIds: string[] | null;
  expiresAt: string | null;
}

/** Checks the scope's servers against the account and resolves the player id (a known DayZ ID becomes its Steam64). */
export async function resolveQueueInput(deps: Core, accountId: string, input: QueueInput): Promise<ResolvedQueueInput> {
  const serverIds = input.serverIds?.length ? [...new Set(input.serverIds.map((id) => id.toLowerCase()))].sort() : null;
  if (serverIds) {
    const live = new Set(await liveServerIdsOf(deps.db, accountId));
    const unknown = serverIds.filter((id) => !live.has(id));
    if (unknown.length > 0) throw new UnknownServers(`no such server in the account: ${unknown.join(', ')}`);
  }
  const expiresAt = input.expiresAt ? iso(Date.parse(input.expiresAt)) : null;
  return { ...input, serverIds, expiresAt, platformId: await canonicalPlatformId(deps.db, input.platformId) };
}

/**
 * Adds or extends the entry inside the caller's transaction: audited, its files asked to sync.
 * `durationDays` counts from now for a new entry and from the old expiry (if later) for an
 * extended one. `extra` carries audit details (a store's event id).
 */
export async function placeQueueEntry(
  tx: Queryable,
  accountId: string,
  input: ResolvedQueueInput,
  actor: Actor,
  nowMs: number,
  source: QueueEntry['source'] = 'manual',
  extra: Record<string, unknown> = {},
): Promise<{ entry: QueueEntry; created: boolean }> {
  const nowIso = iso(nowMs);
  const expiresAt = input.durationDays !== undefined ? iso(nowMs + input.durationDays * 86_400_000) : input.expiresAt;
  const placed = await upsertQueueEntry(
    tx,
    accountId,
    {
      platformId: input.platformId,
      playerName: input.playerName ?? null,
      comment: input.comment ?? null,
      serverIds: input.serverIds,
      expiresAt,
      source,
      createdBy: { id: actor.id, name: actor.name },
      ...(input.durationDays !== undefined ? { extendDays: input.durationDays } : {}),
    },
    nowIso,
  );
  await auditQueue(tx, placed.entry, nowIso, actor, placed.created ? 'queue.add' : 'queue.extend', {
    expiresAt: placed.entry.expiresAt,
    serverIds: input.serverIds,
    ...extra,
  });
  await requestEntrySync(tx, placed.entry, nowIso);
  const { entry, created } = placed;
  await queueEvent(tx, {
    accountId,
    type: 'queue.granted',
    occurredAt: nowIso,
    data: {
      entry: {
        id: entry.id,
        platformId: entry.platformId,
        playerName: entry.playerName,
        serverIds: entry.serverIds,
        expiresAt: entry.expiresAt,
        source: entry.source,
      },
      created,
    },
  });
  return placed;
}

/** Adds a player to the queue, or extends their entry of the same scope; created: false for an extension. */
export async function queuePlayer(
  deps: TrustDeps & ServerReadDeps,
  accountId: string,
  input: QueueInput,
  actor: Actor,
): Promise<{ entry: QueueEntry; created: boolean }> {
  const resolved = await resolveQueueInput(deps, accountId, input);
  const result = await inTransaction(deps.db, (tx) => placeQueueEntry(tx, accountId, resolved, actor, deps.clock.now()));
  if (isSteam64(resolved.platformId)) await mergeOrphanDayzId(deps, resolved.platformId, actor);
  return result;
}

export async function changeQueueEntry(
  deps: Core,
  accountId: string,
  entryId: string,
  patch: QueueEntryUpdate,
  actor: Actor,
): Promise<QueueEntry | undefined> {
  const nowMs = deps.clock.now();
  const change: QueueChange = {};
  if ('playerName' in patch) change.playerName = patch.playerName ?? null;
  if ('comment' in patch) change.comment = patch.comment ?? null;
  if (patch.durationDays !== undefined) change.expiresAt = iso(nowMs + patch.durationDays * 86_400_000);
  else if ('expiresAt' in patch) change.expiresAt = patch.expiresAt ? iso(Date.parse(patch.expiresAt)) : null;
  return inTransaction(deps.db, async (tx) => {
    const entry = await updateQueueEntry(tx, accountId, entryId, change, iso(nowMs));
    if (!entry) return undefined;
    await auditQueue(tx, entry, iso(nowMs), actor, 'queue.update', {
      changed: Object.keys(change),
      ...('expiresAt' in change ? { expiresAt: change.expiresAt } : {}),
    });
    if ('expiresAt' in change) await requestEntrySync(tx, entry, iso(nowMs));
    return entry;
  });
}

export async function removeQueueEntry(
  deps: Core,
  accountId: string,
  entryId: string,
  actor: Actor,
  extra: Record<string, unknown> = {},
): Promise<QueueEntry | undefined> {
  const nowIso = iso(deps.clock.now());
  return inTransaction(deps.db, async (tx) => {
    const entry = await deleteQueueEntry(tx, accountId, entryId);
    if (!entry) return undefined;
    await auditQueue(tx, entry, nowIso, actor, 'queue.remove', extra);
    await requestEntrySync(tx, entry, nowIso);
    return entry;
  });
}

/** What one grant (a store purchase) gave an entry, so that a refund can take exactly that back. */
export interface QueueGrant {
  entryId: string;
  /** Days the grant added; null = it made the entry permanent. */
  days: number | null;
  /** Whether the grant made the entry (else it extended one). */
  created: boolean;
  /** The entry's expiry before the grant (null = permanent already, or new). */
  previousExpiresAt: string | null;
}

/**
 * Takes a grant back inside the caller's transaction: a timed grant shortens the entry by its days
 * (other grants since keep theirs), a permanent one removes the entry it made or restores the
 * expiry it replaced; an entry left with no time is removed. Audited; its files asked to sync.
 * Returns false when the entry is gone already (expired or removed by hand).
 */
export async function takeBackQueueGrant(
  tx: Queryable,
  grant: QueueGrant,
  actor: Actor,
  nowMs: number,
  extra: Record<string, unknown>,
): Promise<boolean> {
  const entry = await lockQueueEntry(tx, grant.entryId);
  if (!entry) return false;
  let expiresAt = entry.expiresAt;
  if (grant.days !== null) {
    if (entry.expiresAt !== null) expiresAt = iso(Date.parse(entry.expiresAt) - grant.days * 86_400_000);
  } else {
    expiresAt = grant.created ? iso(nowMs) : grant.previousExpiresAt;
  }
  const nowIso = iso(nowMs);
  const ends = expiresAt !== null && Date.parse(expiresAt) <= nowMs;
  const after = ends
    ? await deleteQueueEntry(tx, entry.accountId, entry.id)
    : await updateQueueEntry(tx, entry.accountId, entry.id, { expiresAt }, nowIso);
  await auditQueue(tx, entry, nowIso, actor, 'queue.revoke', { removed: ends, expiresAt: ends ? null : after!.expiresAt, ...extra });
  await requestEntrySync(tx, entry, nowIso);
  return true;
}

/** An entry as the controller shows it. */
export function queueEntryView(e: QueueEntry, nowMs: number): QueueEntryAnswer {
  return {
    id: e.id,
    platformId: e.platformId,
    playerName: e.playerName,
    comment: e.comment,
    serverIds: e.serverIds,
    permanent: e.expiresAt === null,
    active: e.expiresAt === null || Date.parse(e.expiresAt) > nowMs,
    expiresAt: e.expiresAt,
    source: e.source,
    createdBy: e.createdById || e.createdByName ? { id: e.createdById, name: e.createdByName } : null,
    createdAt: e.createdAt,
    updatedAt: e.updatedAt,
  };
}
