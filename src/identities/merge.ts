// Merges a player known only by a DayZ ID or console id into its Steam64 once the Steam64 is learnt
// (docs/api.md, Player ids): per-server totals, kills on both sides, bans, pool entries and links move in one transaction; the
// merge is idempotent (a second call finds nothing left to move) and audited as `player.merged`.
// The derived Redis state of the servers concerned is rebuilt after the commit.
import type { ServerReadDeps } from '../stats/server-reads.ts';
import { inTransaction } from '../store/db.ts';
import { insertAudit } from '../audit/audit.repo.ts';
import { lockServer } from '../ingest/ingest.repo.ts';
import { loadTotals, saveTotals } from '../stats/stats.repo.ts';
import { emptyTotals } from '../stats/totals.ts';
import { rebuildServer } from '../derived/rebuild.ts';
import { battleyeGuidOf, dayzIdOf, isConsoleId, isDayzId, isSteam64 } from './id-forms.ts';
import { combineTotals } from './combine-totals.ts';
import { completeMovedBans, moveGameFileRecords } from '../game-files/player-merge.ts';
import { moveProfileRecords } from '../players/player-merge.ts';
import { invalidateTrustScores } from '../trust/lookup.ts';
import type { TrustDeps } from '../trust/lookup.ts';
import {
  accountsConcerned,
  bumpDerivedVersions,
  existingPlayers,
  lockIdentitiesExclusive,
  lockPlayers,
  moveRecords,
  serversOfPlayer,
  upsertMergedPlayer,
} from './identity.repo.ts';

export interface MergeActor {
  type: 'system' | 'user';
  id?: string;
  name?: string;
}

export interface MergeResult {
  merged: boolean;
  servers: string[];
}

export class IdentityLinkError extends Error {}

/**
 * Merges `fromId` (a DayZ ID, which must be the Steam64's, or a console id) into `steam64`.
 * Returns merged: false when there was nothing to move (already merged, or never seen).
 */
export async function mergeIntoSteam64(
  deps: TrustDeps & ServerReadDeps,
  fromId: string,
  steam64: string,
  actor: MergeActor = { type: 'system' },
): Promise<MergeResult> {
  if (!isSteam64(steam64)) throw new IdentityLinkError(`${steam64} is not a Steam64`);
  if (isDayzId(fromId) ? dayzIdOf(steam64) !== fromId : !isConsoleId(fromId)) {
    throw new IdentityLinkError(`${fromId} is neither the DayZ ID of ${steam64} nor a console id`);
  }
  const result = await inTransaction(deps.db, async (tx) => {
    await lockIdentitiesExclusive(tx);
    const rows = await lockPlayers(tx, [fromId, steam64]);
    const from = rows.get(fromId);
    const servers = await serversOfPlayer(tx, fromId);
    const atIso = new Date(deps.clock.now()).toISOString();
    if (!from && servers.length === 0) {
      // Nothing to move (never seen under that id, or merged before). A console id of a known
      // Steam64 is still linked, so its later events land under the Steam64.
      if (isConsoleId(fromId) && rows.has(steam64)) {
        await moveProfileRecords(tx, fromId, steam64, []);
        await moveRecords(tx, fromId, steam64, [], atIso);
      }
      return { merged: false, servers: [] };
    }
    const into = rows.get(steam64);
    const newest = !into || (from && from.lastSeenAt > into.lastSeenAt) ? from : into;
    await upsertMergedPlayer(
      tx,
      {
        platformId: steam64,
        name: newest?.name ?? into?.name ?? steam64,
        firstSeenAt: [from?.firstSeenAt, into?.firstSeenAt].filter((x): x is string => !!x).sort()[0] ?? atIso,
        lastSeenAt:
          [from?.lastSeenAt, into?.lastSeenAt]
            .filter((x): x is string => !!x)
            .sort()
            .at(-1) ?? atIso,
      },
      dayzIdOf(steam64),
      battleyeGuidOf(steam64),
    );
    // Server locks only now, after every player row this merge writes (the Steam64's may be new):
    // a batch writes its player rows before it takes its server's lock, so the two never wait on
    // each other in a circle.
    for (const serverId of servers) await lockServer(tx, serverId);
    const accounts = await accountsConcerned(tx, servers, fromId);
    for (const serverId of servers) {
      const totals = await loadTotals(tx, serverId, [fromId, steam64]);
      const combined = combineTotals(totals.get(steam64) ?? emptyTotals(), totals.get(fromId) ?? emptyTotals());
      await saveTotals(tx, serverId, new Map([[steam64, combined]]));
    }
    await moveGameFileRecords(tx, fromId, steam64, atIso);
    await moveProfileRecords(tx, fromId, steam64, servers);
    await moveRecords(tx, fromId, steam64, servers, atIso);
    await completeMovedBans(tx, steam64);
    await bumpDerivedVersions(tx, servers);
    for (const accountId of accounts.length > 0 ? accounts : [null]) {
      await insertAudit(tx, {
        accountId,
        at: atIso,
        actorType: actor.type,
        actorId: actor.id ?? null,
        actorName: actor.name ?? null,
        action: 'player.merged',
        targetType: 'player',
        targetId: steam64,
        ip: null,
        details: { from: fromId, into: steam64, servers },
      });
    }
    return { merged: true, servers };
  });
  // Both ids' cached scores drop: the Steam64's evidence grew, the DayZ ID now answers as the Steam64.
  if (result.merged) await invalidateTrustScores(deps, [fromId, steam64]);
  for (const serverId of result.servers) {
    try {
      await rebuildServer(deps, serverId);
    } catch (err) {
      // The merge is committed and the version bumped: the reconcile job rebuilds this server later.
      deps.log.warn({ err, serverId }, 'rebuild after a player merge failed; the reconcile job repairs it');
    }
  }
  return result;
}

/**
 * A Steam64 was learnt outside ingestion (a ban or queue entry naming it, a purchase, a chat link,
 * an admin): its DayZ ID, if it is a player of its own, is merged into it. Call after the change
 * that named the Steam64 is committed.
 */
export async function learnSteam64(
  deps: TrustDeps & ServerReadDeps,
  steam64: string,
  actor: MergeActor = { type: 'system' },
): Promise<MergeResult> {
  if (!isSteam64(steam64)) return { merged: false, servers: [] };
  const dayzId = dayzIdOf(steam64);
  if ((await existingPlayers(deps.db, [dayzId])).size === 0) return { merged: false, servers: [] };
  return mergeIntoSteam64(deps, dayzId, steam64, actor);
}

/** Merges every DayZ ID of these Steam64s that is still a player of its own (after an ingested batch). */
export async function mergeLearntSteam64s(deps: TrustDeps & ServerReadDeps, pending: { dayzId: string; steam64: string }[]): Promise<void> {
  for (const { dayzId, steam64 } of pending) {
    try {
      await mergeIntoSteam64(deps, dayzId, steam64);
    } catch (err) {
      // The batch is committed; the next batch naming the Steam64 finds the DayZ ID again and retries.
      deps.log.error({ err, dayzId, steam64 }, 'player merge failed');
    }
  }
}
