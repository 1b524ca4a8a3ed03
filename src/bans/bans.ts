// An account's bans: create, change, lift and import by shareable id. A ban applies to
// every server of the account; each change is audited in the same transaction and asks for the
// account's ban files to be synced. A ban naming a Steam64 whose DayZ ID is still a player of its
// own merges that player into the Steam64 (docs/api.md, Player ids).
import { ApiError } from '../http/errors.ts';
import type { Actor } from '../audit/actor.ts';
import type { Core } from '../core.ts';
import type { ServerReadDeps } from '../stats/server-reads.ts';
import type { TrustDeps } from '../trust/lookup.ts';
import type { BanCreate, BanRecord as BanRecordAnswer, BanUpdate } from '../http/schema-types.ts';
import { inTransaction } from '../store/db.ts';
import type { Queryable } from '../store/db.ts';
import { insertAudit } from '../audit/audit.repo.ts';
import { dayzIdOf, isSteam64 } from '../identities/id-forms.ts';
import { existingPlayers, resolveAliases } from '../identities/identity.repo.ts';
import { mergeIntoSteam64 } from '../identities/merge.ts';
import { requestAccountSync } from '../game-files/sync-requests.ts';
import { queueBanKicks } from '../commands/commands.ts';
import { wakeAgents } from '../commands/agent-waits.ts';
import type { RequestedBy } from '../commands/command.ts';
import { activeBanOf, lockPlayerBans, findBan, findSharedBan, insertBan, liftBan, updateBan } from './ban.repo.ts';
import type { BanChange, BanRecord, BanSource } from './ban.repo.ts';
import type { AgentWaitsHeld } from '../commands/agent-waits.ts';
import { queueEvent } from '../webhooks/outbox.repo.ts';
import { banData } from '../webhooks/events.ts';

/** A change the ban's state does not allow: 409. */
const conflict = (message: string) => new ApiError('CONFLICT', message);

const iso = (ms: number) => new Date(ms).toISOString();

/** When a ban given `expiresAt` or `durationMinutes` ends (null: permanent; undefined: not given). */
export function expiryOf(input: { expiresAt?: string | null; durationMinutes?: number }, nowMs: number): string | null | undefined {
  if (input.durationMinutes !== undefined) return iso(nowMs + input.durationMinutes * 60_000);
  if (input.expiresAt === undefined) return undefined;
  return input.expiresAt === null ? null : iso(Date.parse(input.expiresAt));
}

/** A DayZ ID of a known Steam64, or a linked console id, is banned as that Steam64. */
export async function canonicalPlatformId(db: Queryable, platformId: string): Promise<string> {
  if (isSteam64(platformId)) return platformId;
  return (await resolveAliases(db, [platformId])).get(platformId) ?? platformId;
}

export async function audit(
  db: Queryable,
  accountId: string,
  atIso: string,
  actor: Actor,
  action: string,
  banId: string,
  details: Record<string, unknown>,
): Promise<void> {
  await insertAudit(db, {
    accountId,
    at: atIso,
    actorType: actor.type === 'store' ? 'system' : actor.type,
    actorId: actor.id,
    actorName: actor.name,
    action,
    targetType: 'ban',
    targetId: banId,
    ip: actor.ip ?? null,
    details,
  });
}

interface PlacedBan {
  platformId: string;
  playerName?: string | null;
  reason?: string | null;
  expiresAt: string | null;
  source: BanSource;
  importedFrom?: string | null;
}

const requesterOf = (actor: Actor): RequestedBy => ({
  type: actor.type === 'store' ? 'system' : actor.type,
  id: actor.id,
  name: actor.name,
});

/** What placing a ban uses: the score it changes, the server reads it drops, the agents it wakes. */
export type BanDeps = TrustDeps & ServerReadDeps & AgentWaitsHeld;

/**
 * Inserts a ban unless the player already has one in force; audited; the account's files are asked
 * to sync and its servers' agents to kick the player.
 */
async function placeBan(deps: BanDeps, accountId: string, ban: PlacedBan, actor: Actor, action: string): Promise<BanRecord> {
  const nowIso = iso(deps.clock.now());
  const platformId = await canonicalPlatformId(deps.db, ban.platformId);
  const record = await inTransaction(deps.db, async (tx) => {
    // One ban in force per player: concurrent requests for the same player (in either id form) queue here.
    await lockPlayerBans(tx, accountId, isSteam64(platformId) ? dayzIdOf(platformId) : platformId);
    const existing = await activeBanOf(tx, accountId, isSteam64(platformId) ? [platformId, dayzIdOf(platformId)] : [platformId], nowIso);
    if (existing) throw conflict(`the player already has a ban in force (${existing.id})`);
    const id = await insertBan(tx, accountId, {
      platformId,
      dayzId: isSteam64(platformId) ? dayzIdOf(platformId) : null,
      playerName: ban.playerName ?? null,
      reason: ban.reason ?? null,
      source: ban.source,
      bannedAt: nowIso,
      expiresAt: ban.expiresAt,
      createdBy: { id: actor.id, name: actor.name },
      importedFrom: ban.importedFrom ?? null,
    });
    // Live enforcement: each server's agent kicks the player if present.
    const kicked = await queueBanKicks(tx, accountId, platformId, ban.reason ?? null, requesterOf(actor), nowIso);
    await audit(tx, accountId, nowIso, actor, action, id, {
      platformId,
      expiresAt: ban.expiresAt,
      kicksQueued: kicked.length,
      ...(ban.importedFrom ? { importedFrom: ban.importedFrom } : {}),
    });
    await requestAccountSync(tx, accountId, 'bans', nowIso);
    const placed = (await findBan(tx, accountId, id))!;
    await queueEvent(tx, { accountId, type: 'ban.created', occurredAt: nowIso, data: banData(placed) });
    return { ban: placed, kicked };
  });
  await wakeAgents(deps, record.kicked);
  if (isSteam64(platformId)) await mergeOrphanDayzId(deps, platformId, actor);
  return record.ban;
}

/** The Steam64's DayZ ID, if still a player of its own, is merged into it (after the ban committed). */
export async function mergeOrphanDayzId(deps: TrustDeps & ServerReadDeps, steam64: string, actor: Actor): Promise<void> {
  const dayzId = dayzIdOf(steam64);
  if ((await existingPlayers(deps.db, [dayzId])).size === 0) return;
  try {
    await mergeIntoSteam64(deps, dayzId, steam64, {
      type: actor.type === 'user' ? 'user' : 'system',
      id: actor.id ?? undefined,
      name: actor.name ?? undefined,
    });
  } catch (err) {
    // The ban stands; the next ban, queue entry or ingested event naming the Steam64 merges again.
    deps.log.error({ err, dayzId, steam64 }, 'player merge after a ban failed');
  }
}

export async function createBan(deps: BanDeps, accountId: string, input: BanCreate, actor: Actor): Promise<BanRecord> {
  const expiresAt = expiryOf(input, deps.clock.now()) ?? null;
  return placeBan(deps, accountId, { ...input, expiresAt, source: 'manual' }, actor, 'ban.create');
}

/** Copies another community's ban by its id (source `import`); undefined when no ban in force has that id. */
export async function importBan(deps: BanDeps, accountId: string, banId: string, actor: Actor): Promise<BanRecord | undefined> {
  const shared = await findSharedBan(deps.db, banId);
  const nowMs = deps.clock.now();
  if (!shared || shared.liftedAt !== null || (shared.expiresAt !== null && Date.parse(shared.expiresAt) <= nowMs)) return undefined;
  if (shared.accountId === accountId) throw conflict('this ban is already your own');
  return placeBan(
    deps,
    accountId,
    {
      platformId: shared.platformId,
      playerName: shared.playerName,
      reason: shared.reason,
      expiresAt: shared.expiresAt,
      source: 'import',
      importedFrom: shared.id,
    },
    actor,
    'ban.import',
  );
}

/** Changes a ban that is not lifted; undefined when the account has none of that id. */
export async function changeBan(
  deps: Core,
  accountId: string,
  banId: string,
  patch: BanUpdate,
  actor: Actor,
): Promise<BanRecord | undefined> {
  const nowIso = iso(deps.clock.now());
  const change: BanChange = {};
  if ('playerName' in patch) change.playerName = patch.playerName ?? null;
  if ('reason' in patch) change.reason = patch.reason ?? null;
  const expiresAt = expiryOf(patch, deps.clock.now());
  if (expiresAt !== undefined) change.expiresAt = expiresAt;
  return inTransaction(deps.db, async (tx) => {
    const existing = await findBan(tx, accountId, banId);
    if (!existing) return undefined;
    if (existing.liftedAt !== null) throw conflict('a lifted ban cannot be changed');
    const updated = await updateBan(tx, accountId, banId, change, nowIso);
    if (!updated) throw conflict('a lifted ban cannot be changed');
    await audit(tx, accountId, nowIso, actor, 'ban.update', banId, {
      changed: Object.keys(change),
      ...('expiresAt' in change ? { expiresAt: change.expiresAt } : {}),
    });
    if ('expiresAt' in change) await requestAccountSync(tx, accountId, 'bans', nowIso);
    return updated;
  });
}

/** Lifts a ban (kept in history); undefined when unknown, 409 when lifted before. */
export async function removeBan(deps: Core, accountId: string, banId: string, actor: Actor): Promise<BanRecord | undefined> {
  const nowIso = iso(deps.clock.now());
  return inTransaction(deps.db, async (tx) => {
    const existing = await findBan(tx, accountId, banId);
    if (!existing) return undefined;
    const lifted = await liftBan(tx, accountId, banId, nowIso, { id: actor.id, name: actor.name });
    if (!lifted) throw conflict('the ban was lifted before');
    await audit(tx, accountId, nowIso, actor, 'ban.lift', banId, { platformId: lifted.platformId });
    await requestAccountSync(tx, accountId, 'bans', nowIso);
    await queueEvent(tx, { accountId, type: 'ban.lifted', occurredAt: nowIso, data: banData(lifted) });
    return lifted;
  });
}

/** A ban as the controller shows it. */
export function banView(ban: BanRecord, nowMs: number): BanRecordAnswer {
  const inForce = ban.liftedAt === null && (ban.expiresAt === null || Date.parse(ban.expiresAt) > nowMs);
  return {
    id: ban.id,
    platformId: ban.platformId,
    playerName: ban.playerName,
    reason: ban.reason,
    source: ban.source,
    permanent: ban.expiresAt === null,
    active: inForce,
    bannedAt: ban.bannedAt,
    expiresAt: ban.expiresAt,
    createdBy: ban.createdById || ban.createdByName ? { id: ban.createdById, name: ban.createdByName } : null,
    liftedAt: ban.liftedAt,
    liftedBy: ban.liftedAt ? { id: ban.liftedById, name: ban.liftedByName } : null,
    importedFrom: ban.importedFrom,
    updatedAt: ban.updatedAt,
  };
}
