// The priority queue (VIP) of an account (DESIGN 5): one entry per player and scope (every server,
// or a set of servers); adding again extends the entry. Every change is audited in its transaction
// and asks for the priority files of the servers concerned to be synced. An entry naming a Steam64
// whose DayZ ID is still a player of its own merges that player (DESIGN 14).
import type { Deps } from '../deps.ts';
import { inTransaction } from '../store/db.ts';
import type { Queryable } from '../store/db.ts';
import { insertAudit } from '../audit/audit.repo.ts';
import { isSteam64 } from '../identities/id-forms.ts';
import type { Actor } from '../bans/bans.ts';
import { canonicalPlatformId, mergeOrphanDayzId } from '../bans/bans.ts';
import { liveServerIdsOf } from '../servers/server.repo.ts';
import { requestAccountSync, requestServerSync } from '../game-files/sync-requests.ts';
import { deleteQueueEntry, updateQueueEntry, upsertQueueEntry } from './queue.repo.ts';
import type { QueueChange, QueueEntry } from './queue.repo.ts';

export interface QueueInput {
  platformId: string;
  playerName?: string | null;
  comment?: string | null;
  expiresAt?: string | null;
  durationDays?: number;
  serverIds?: string[] | null;
}

/** A serverIds list naming a server the account does not have (or a revoked one). */
export class UnknownServers extends Error {}

const iso = (ms: number) => new Date(ms).toISOString();

async function auditQueue(db: Queryable, entry: QueueEntry, atIso: string, actor: Actor, action: string, details: Record<string, unknown>): Promise<void> {
  await insertAudit(db, {
    accountId: entry.accountId, at: atIso, actorType: actor.type === 'store' ? 'system' : actor.type, actorId: actor.id, actorName: actor.name,
    action, targetType: 'queue-entry', targetId: entry.id, ip: actor.ip ?? null, details: { platformId: entry.platformId, ...details },
  });
}

/** Asks for the priority files the entry's scope covers to be synced. */
export const requestEntrySync = (db: Queryable, entry: Pick<QueueEntry, 'accountId' | 'serverIds'>, atIso: string) =>
  entry.serverIds === null ? requestAccountSync(db, entry.accountId, 'priority', atIso) : requestServerSync(db, entry.serverIds, 'priority', atIso);

/**
 * Adds a player to the queue, or extends their entry of the same scope. `durationDays` counts from
 * now for a new entry and from the old expiry (if later) for an extended one. Returns created: false
 * for an extension. `extra` carries audit details (a store's event id).
 */
export async function queuePlayer(deps: Deps, accountId: string, input: QueueInput, actor: Actor, source: QueueEntry['source'] = 'manual', extra: Record<string, unknown> = {}): Promise<{ entry: QueueEntry; created: boolean }> {
  const nowMs = deps.clock.now();
  const nowIso = iso(nowMs);
  const serverIds = input.serverIds?.length ? [...new Set(input.serverIds.map((id) => id.toLowerCase()))].sort() : null;
  if (serverIds) {
    const live = new Set(await liveServerIdsOf(deps.db, accountId));
    const unknown = serverIds.filter((id) => !live.has(id));
    if (unknown.length > 0) throw new UnknownServers(`no such server in the account: ${unknown.join(', ')}`);
  }
  const expiresAt = input.durationDays !== undefined ? iso(nowMs + input.durationDays * 86_400_000) : input.expiresAt ? iso(Date.parse(input.expiresAt)) : null;
  const platformId = await canonicalPlatformId(deps.db, input.platformId);
  const result = await inTransaction(deps.db, async (tx) => {
    const placed = await upsertQueueEntry(tx, accountId, {
      platformId, playerName: input.playerName ?? null, comment: input.comment ?? null, serverIds, expiresAt, source,
      createdBy: { id: actor.id, name: actor.name }, ...(input.durationDays !== undefined ? { extendDays: input.durationDays } : {}),
    }, nowIso);
    await auditQueue(tx, placed.entry, nowIso, actor, placed.created ? 'queue.add' : 'queue.extend', { expiresAt: placed.entry.expiresAt, serverIds, ...extra });
    await requestEntrySync(tx, placed.entry, nowIso);
    return placed;
  });
  if (isSteam64(platformId)) await mergeOrphanDayzId(deps, platformId, actor);
  return result;
}

export interface QueuePatch {
  playerName?: string | null;
  comment?: string | null;
  expiresAt?: string | null;
  durationDays?: number;
}

export async function changeQueueEntry(deps: Deps, accountId: string, entryId: string, patch: QueuePatch, actor: Actor): Promise<QueueEntry | undefined> {
  const nowMs = deps.clock.now();
  const change: QueueChange = {};
  if ('playerName' in patch) change.playerName = patch.playerName ?? null;
  if ('comment' in patch) change.comment = patch.comment ?? null;
  if (patch.durationDays !== undefined) change.expiresAt = iso(nowMs + patch.durationDays * 86_400_000);
  else if ('expiresAt' in patch) change.expiresAt = patch.expiresAt ? iso(Date.parse(patch.expiresAt)) : null;
  return inTransaction(deps.db, async (tx) => {
    const entry = await updateQueueEntry(tx, accountId, entryId, change, iso(nowMs));
    if (!entry) return undefined;
    await auditQueue(tx, entry, iso(nowMs), actor, 'queue.update', { changed: Object.keys(change), ...('expiresAt' in change ? { expiresAt: change.expiresAt } : {}) });
    if ('expiresAt' in change) await requestEntrySync(tx, entry, iso(nowMs));
    return entry;
  });
}

export async function removeQueueEntry(deps: Deps, accountId: string, entryId: string, actor: Actor, extra: Record<string, unknown> = {}): Promise<QueueEntry | undefined> {
  const nowIso = iso(deps.clock.now());
  return inTransaction(deps.db, async (tx) => {
    const entry = await deleteQueueEntry(tx, accountId, entryId);
    if (!entry) return undefined;
    await auditQueue(tx, entry, nowIso, actor, 'queue.remove', extra);
    await requestEntrySync(tx, entry, nowIso);
    return entry;
  });
}

/** An entry as the controller shows it. */
export function queueEntryView(e: QueueEntry, nowMs: number) {
  return {
    id: e.id, platformId: e.platformId, playerName: e.playerName, comment: e.comment, serverIds: e.serverIds,
    permanent: e.expiresAt === null, active: e.expiresAt === null || Date.parse(e.expiresAt) > nowMs, expiresAt: e.expiresAt, source: e.source,
    createdBy: e.createdById || e.createdByName ? { id: e.createdById, name: e.createdByName } : null, createdAt: e.createdAt, updatedAt: e.updatedAt,
  };
}
