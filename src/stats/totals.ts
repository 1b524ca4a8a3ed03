// Per-server player totals and how events change them. Pure: the caller loads the current
// totals, applies a batch (sorted by time) and stores the result.
import type { IngestEvent } from '../ingest/events.ts';

export interface PlayerTotals {
  name: string | null;
  kills: number;
  deaths: number;
  headshots: number;
  killDistanceSum: number;
  playSeconds: number;
  shotsFired: number;
  shotsHit: number;
  /** ms of the last presence event while connected; null once disconnected. */
  onlineAtMs: number | null;
  /** ms of the newest presence event (connect, heartbeat or disconnect); older ones arrive too late. */
  presenceAtMs: number | null;
  /** ms of the event that set the name; an older event does not rename. */
  nameAtMs: number | null;
}

/** A player is online for this long after their last presence event; gaps longer than it are not play time. */
export const onlineWindowMs = 90_000;

/**
 * The totals' fields in one fixed order: how PostgreSQL's ingest calls return a player's totals,
 * and how ingestion holds the present players' rows in memory (one text a row, src/ingest/present-totals.ts).
 */
export type TotalsTuple = [string | null, number, number, number, number, number, number, number, number | null, number | null, number | null];

export const totalsTuple = (t: PlayerTotals): TotalsTuple =>
  [t.name, t.kills, t.deaths, t.headshots, t.killDistanceSum, t.playSeconds, t.shotsFired, t.shotsHit, t.onlineAtMs, t.presenceAtMs, t.nameAtMs];

export const totalsOfTuple = ([name, kills, deaths, headshots, killDistanceSum, playSeconds, shotsFired, shotsHit, onlineAtMs, presenceAtMs, nameAtMs]: TotalsTuple): PlayerTotals =>
  ({ name, kills, deaths, headshots, killDistanceSum, playSeconds, shotsFired, shotsHit, onlineAtMs, presenceAtMs, nameAtMs });

export const emptyTotals = (): PlayerTotals => ({
  name: null, kills: 0, deaths: 0, headshots: 0, killDistanceSum: 0, playSeconds: 0, shotsFired: 0, shotsHit: 0, onlineAtMs: null,
  presenceAtMs: null, nameAtMs: null,
});

/** Applies events in time order; returns the platform ids whose totals changed. */
export function applyEvents(totals: Map<string, PlayerTotals>, events: readonly IngestEvent[]): Set<string> {
  const changed = new Set<string>();
  const of = (platformId: string, tsMs: number, name?: string): PlayerTotals => {
    let t = totals.get(platformId);
    if (!t) totals.set(platformId, (t = emptyTotals()));
    if (name !== undefined && (t.nameAtMs === null || tsMs >= t.nameAtMs)) {
      t.name = name;
      t.nameAtMs = tsMs;
    }
    changed.add(platformId);
    return t;
  };
  for (const event of events) {
    switch (event.type) {
      case 'player.connect':
      case 'player.heartbeat':
      case 'player.disconnect':
        presence(of(event.player.platformId, event.tsMs, event.player.name), event.tsMs, event.type !== 'player.disconnect');
        break;
      case 'kill': {
        const victim = of(event.victim.platformId, event.tsMs, event.victim.name);
        victim.deaths += 1;
        // A suicide is a death, not a kill.
        if (event.killer.platformId === event.victim.platformId) break;
        const killer = of(event.killer.platformId, event.tsMs, event.killer.name);
        killer.kills += 1;
        killer.killDistanceSum += event.distance;
        if (event.isHeadshot) killer.headshots += 1;
        break;
      }
      case 'death':
        // A death with no player killer: the player's deaths (and so their rank), never anyone's kill.
        of(event.player.platformId, event.tsMs, event.player.name).deaths += 1;
        break;
      case 'shots': {
        const shooter = of(event.platformId, event.tsMs);
        shooter.shotsFired += event.fired;
        shooter.shotsHit += event.hits;
        break;
      }
      case 'server.status':
      case 'server.started':
        break;
    }
  }
  return changed;
}

/**
 * A batch's changes split by how they are stored: players with presence events need their stored
 * state (play time runs from their last presence), so `stored` must hold theirs and their totals
 * are written whole (`absolute`); the others only add up counters (`deltas`, from empty totals),
 * without being read first.
 */
export function batchChanges(stored: Map<string, PlayerTotals>, events: readonly IngestEvent[], present: ReadonlySet<string>) {
  const absolute = new Map<string, PlayerTotals>();
  const deltas = new Map<string, PlayerTotals>();
  for (const id of applyEvents(stored, events)) (present.has(id) ? absolute : deltas).set(id, stored.get(id)!);
  return { absolute, deltas };
}

/** The players whose presence events of the batch make their stored state needed. */
export function presentPlayers(events: readonly IngestEvent[]): Set<string> {
  const present = new Set<string>();
  for (const e of events) if ('player' in e && e.type !== 'death') present.add(e.player.platformId);
  return present;
}

function presence(t: PlayerTotals, tsMs: number, stillOnline: boolean): void {
  if (t.presenceAtMs !== null && tsMs < t.presenceAtMs) return; // late, out-of-order event: already covered
  if (t.onlineAtMs !== null && tsMs - t.onlineAtMs <= onlineWindowMs) t.playSeconds += (tsMs - t.onlineAtMs) / 1000;
  t.onlineAtMs = stillOnline ? tsMs : null;
  t.presenceAtMs = tsMs;
}
