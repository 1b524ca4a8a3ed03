// A player's profile as an account sees it (GET /api/players/:identifier): ids, names, per-server
// totals, sessions and newest kills, the account's bans and queue entries with their history, the
// public trust score and pool entries (the trust capability's own reads), and the account's notes
// and watch flag. What other communities' servers saw is never read; what other communities linked
// (console ids, chat ids) is shown only for a player the account itself knows.
import type { Permission } from '../auth/permissions.ts';
import { auditOfQueuedPlayer, auditOfTargets } from '../audit/audit.repo.ts';
import type { AuditEntry } from '../audit/audit.repo.ts';
import { bansOfPlayer } from '../bans/ban.repo.ts';
import { banView } from '../bans/bans.ts';
import type { PlayerIds, PlayerProfile, PlayerServer, TrustScore } from '../http/schema-types.ts';
import { battleyeGuidOf, dayzIdOf, isConsoleId, isDayzId, isSteam64, legacyOf } from '../identities/id-forms.ts';
import { entriesOfPlayer } from '../queue/queue.repo.ts';
import { queueEntryView } from '../queue/queue.ts';
import { kdOf } from '../stats/ranking.ts';
import { onlineWindowMs } from '../stats/totals.ts';
import { trustLookup } from '../trust/lookup.ts';
import type { TrustDeps } from '../trust/lookup.ts';
import { accountEntriesOf, publicEntriesOf } from '../trust/pool.repo.ts';
import type { AccountPlayer } from './player.ts';
import { chatIdsOf, knownIdsOf, lastSessionsOf, namesSeenOf, recentKillsOf, serverTotalsOf } from './players.repo.ts';
import type { KnownIds, RecentKill, ServerTotalsRow, SessionRow } from './players.repo.ts';
import { notesOf } from './notes.repo.ts';
import { noteView, watchView } from './notes.ts';
import { watchOf } from './watch.repo.ts';

/** Sessions a server shows; the newest kills and deaths are ten each (what ingestion keeps). */
const sessionsPerServer = 10;
/** Bans and audit entries a profile lists at most. */
const bansShown = 100;
const historyShown = 100;

/**
 * Every id form of the player: derived from a Steam64, or as stored. Linked console ids are ids
 * other communities' admins gave: shown only when `withLinks`.
 */
export function playerIdsOf(platformId: string, known: KnownIds | undefined, withLinks: boolean): PlayerIds {
  const steam64 = isSteam64(platformId) ? platformId : null;
  const linked = withLinks ? (known?.aliases ?? []).filter(isConsoleId) : [];
  return {
    platformId,
    steam64,
    steamLegacy: steam64 ? legacyOf(steam64) : null,
    dayzId: known?.dayzId ?? (steam64 ? dayzIdOf(steam64) : isDayzId(platformId) ? platformId : null),
    battleyeGuid: known?.beGuid ?? (steam64 ? battleyeGuidOf(steam64) : null),
    serviceId: known?.serviceId ?? null,
    consoleIds: [...(isConsoleId(platformId) ? [platformId] : []), ...linked],
  };
}

export interface Viewer {
  permissions: Set<Permission>;
}

export async function playerProfile(deps: TrustDeps, player: AccountPlayer, viewer: Viewer): Promise<PlayerProfile> {
  const { db } = deps;
  const { accountId, platformId, serverIds } = player;
  const nowMs = deps.clock.now();
  const nowIso = new Date(nowMs).toISOString();
  const [known, chatIds, totals, names, sessions, kills, bans, queued, queueHistory, notes, watch, pool, own, score] = await Promise.all([
    knownIdsOf(db, [platformId]),
    player.knownToAccount ? chatIdsOf(db, platformId) : [],
    serverTotalsOf(db, serverIds, platformId),
    namesSeenOf(db, serverIds, platformId),
    lastSessionsOf(db, serverIds, platformId, sessionsPerServer),
    recentKillsOf(db, serverIds, platformId),
    bansOfPlayer(db, accountId, player.recordIds, bansShown),
    entriesOfPlayer(db, accountId, platformId),
    auditOfQueuedPlayer(db, accountId, player.recordIds, historyShown),
    notesOf(db, accountId, platformId),
    watchOf(db, accountId, platformId),
    publicEntriesOf(db, platformId, nowIso),
    viewer.permissions.has('trust.submit') ? accountEntriesOf(db, accountId, platformId) : null,
    player.knownToNetwork ? trustLookup(deps, platformId) : null,
  ]);
  const banHistory =
    bans.length > 0
      ? await auditOfTargets(
          db,
          accountId,
          'ban',
          bans.map((b) => b.id),
          historyShown * bans.length,
        )
      : [];
  const servers = totals.map((row) => serverView(row, sessions, kills, nowMs));
  return {
    ids: playerIdsOf(platformId, known.get(platformId), player.knownToAccount),
    chatIds,
    seenByAccount: player.seenByAccount,
    lastName: totals.find((t) => t.name !== null)?.name ?? names[0]?.name ?? null,
    // Compared as times: the texts' fractions differ in length (.120Z, .120001Z).
    firstSeenAt: names.reduce<string | null>(
      (first, n) => (first === null || Date.parse(n.firstSeenAt) < Date.parse(first) ? n.firstSeenAt : first),
      null,
    ),
    lastSeenAt: totals[0]?.lastSeenAt ?? names[0]?.lastSeenAt ?? null,
    names,
    servers,
    bans: bans.map((ban) => ({ ban: banView(ban, nowMs), history: historyOf(banHistory, ban.id) })),
    queue: { entries: queued.map((e) => queueEntryView(e, nowMs)), history: queueHistory },
    trust: {
      score: score ? (JSON.parse(score.body.toString('utf8')) as TrustScore) : null,
      pool: { platformId, entries: pool },
      ownSubmissions: own,
    },
    notes: notes.map(noteView),
    watch: watchView(platformId, watch),
  };
}

const historyOf = (entries: AuditEntry[], banId: string) => entries.filter((e) => e.target.id === banId).slice(0, historyShown);

function serverView(row: ServerTotalsRow, sessions: SessionRow[], kills: RecentKill[], nowMs: number): PlayerServer {
  const online = row.onlineAt !== null && nowMs - Date.parse(row.onlineAt) <= onlineWindowMs;
  const own = sessions.filter((s) => s.serverId === row.serverId);
  // In the query's order: newest first.
  const side = (which: RecentKill['side']) =>
    kills.filter((k) => k.serverId === row.serverId && k.side === which).map(({ serverId: _s, side: _k, ...kill }) => kill);
  return {
    serverId: row.serverId,
    serverName: row.serverName,
    name: row.name,
    online,
    lastSeenAt: row.lastSeenAt,
    totals: {
      kills: row.kills,
      deaths: row.deaths,
      kd: kdOf(row.kills, row.deaths),
      headshots: row.headshots,
      playSeconds: row.playSeconds,
    },
    // The newest session still open: ongoing while the player is online, else it ended at the
    // last presence while connected (the player went quiet without a disconnect).
    sessions: own.map((s, i) => {
      const open = s.endedAt === null;
      const newest = i === 0;
      return {
        startedAt: s.startedAt,
        endedAt: open && newest && !online ? row.onlineAt : s.endedAt,
        ongoing: open && newest && online,
      };
    }),
    recentKills: side('kill'),
    recentDeaths: side('death'),
  };
}
