// The common batch (Steam64 players only, new event ids, at most one status to apply) applied in
// one database call instead of a transaction of about ten statements: on this kind of machine each
// round trip costs more than the work it carries (system calls on both sides). The totals are
// computed here from the present players' rows read beforehand without the server's lock (or kept
// from this process's last call, src/ingest/present-totals.ts); the call takes the lock, checks
// those rows are unchanged, and applies everything, or changes nothing and the caller takes the
// transactional path (src/ingest/ingest.ts).
import type { Deps } from '../deps.ts';
import { aliasIdsOf, mergeCandidates, settleMerges } from '../identities/resolve.ts';
import { addedColumns, savedColumns } from '../stats/stats.repo.ts';
import { sampleColumns } from '../servers/metrics.repo.ts';
import { batchChanges, presentPlayers } from '../stats/totals.ts';
import type { PlayerTotals } from '../stats/totals.ts';
import type { IngestEvent } from './events.ts';
import { killColumns, killPlacer, playerColumns, playersToStore } from './ingest.repo.ts';
import type { OneCallBatch, SeenPlayers } from './ingest.repo.ts';
import type { CommittedBatch, IngestSlots } from './ingest.ts';
import { forgetPresentTotals, presentTotalsAsRead, rememberPresentTotals } from './present-totals.ts';
import { samplesOf, statusesToApply } from './statuses.ts';
import { isoOfMs as iso } from '../store/iso-time.ts';

/** The batch's events as they would be accepted if every id is new: first occurrences, in time order. */
function firstOccurrences(events: IngestEvent[]): IngestEvent[] {
  const seen = new Set<string>();
  return events.filter((e) => !seen.has(e.id) && seen.add(e.id)).sort((a, b) => a.tsMs - b.tsMs || a.index - b.index);
}

/** Applies the batch in one call; undefined when it is not a common batch or the call asks for the transactional path. */
export async function commitInOneCall(deps: Deps, serverId: string, events: IngestEvent[], arrivalMs: number, steam64s: SeenPlayers, slots: IngestSlots): Promise<CommittedBatch | undefined> {
  const accepted = firstOccurrences(events);
  const statuses = statusesToApply(accepted);
  if (aliasIdsOf(events).length > 0 || statuses.length > 1) return undefined;
  const present = presentPlayers(accepted);
  const candidates = mergeCandidates(accepted, deps.caches.mergeChecked);
  const players = playersToStore(steam64s, deps.caches.playersStored);
  // Rows held in memory are stale when another process wrote them since: the call is refused, and
  // made once more with them read (still one round trip fewer than the transactional path).
  for (const fromMemory of [true, false]) {
    const read = await presentTotalsAsRead(deps, serverId, present, fromMemory, slots.connection);
    const stored = new Map([...read.rows].map(([id, { totals }]) => [id, totals]));
    const { absolute, deltas } = batchChanges(stored, accepted, present);
    const batch = oneCallBatch(accepted, arrivalMs, { status: statuses[0], present, read: read.rows, absolute, deltas, candidates, players });
    const applied = await slots.applyOneCall(serverId, batch);
    if (applied) {
      rememberPresentTotals(deps, serverId, absolute, applied.added, applied.tag);
      const totals = new Map([...absolute, ...applied.added]);
      return {
        result: { accepted: accepted.length, duplicates: events.length - accepted.length, started: accepted.some((e) => e.type === 'server.started') },
        merges: settleMerges(candidates, new Set(applied.orphans), deps.caches.mergeChecked),
        change: { version: applied.server.version, totals, statusJson: JSON.stringify(applied.server) },
      };
    }
    forgetPresentTotals(deps, serverId, present);
    if (!read.fromMemory) break;
  }
  return undefined;
}

interface Computed {
  status: Extract<IngestEvent, { type: 'server.status' }> | undefined;
  present: Set<string>;
  read: Map<string, { tag: string }>;
  absolute: Map<string, PlayerTotals>;
  deltas: Map<string, PlayerTotals>;
  candidates: Map<string, string>;
  players: SeenPlayers;
}

function oneCallBatch(accepted: IngestEvent[], arrivalMs: number, c: Computed): OneCallBatch {
  const place = killPlacer();
  const kills = accepted.filter((e) => e.type === 'kill');
  const status = c.status;
  const present = [...c.present];
  return {
    receivedAt: iso(arrivalMs),
    eventIds: accepted.map((e) => e.id),
    eventsSentAt: accepted.map((e) => iso(e.sentMs)),
    kills: killColumns(kills, kills.map((k) => place(k.tsMs * 1000))),
    expected: { ids: present, tags: present.map((id) => c.read.get(id)?.tag ?? null) },
    save: savedColumns(c.absolute),
    add: addedColumns(c.deltas),
    samples: sampleColumns(samplesOf(accepted)),
    newestAt: iso(accepted.at(-1)!.tsMs),
    status: status ? { at: iso(status.tsMs), online: status.online, map: status.map, gameVersion: status.gameVersion, players: status.players, fps: status.fps, uptimeSeconds: status.uptimeSeconds } : null,
    dayzIds: [...c.candidates.keys()],
    players: playerColumns(c.players),
  };
}
