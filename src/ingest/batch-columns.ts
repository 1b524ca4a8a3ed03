// A parsed batch as the arrays ingest_apply_events (src/ingest/sql/apply-batch.sql) takes: one
// element of each event column an event, in the batch's order, and the Steam64s it names with
// their DayZ ID and BattlEye GUID (derived here, where the service derives them for every route).
import type { IngestEvent } from './events.ts';
import type { ArrayElement, Column } from '../store/pg-array.ts';
import { isoOfMs } from '../store/iso-time.ts';
import { battleyeGuidOf, dayzIdOf, isSteam64 } from '../identities/id-forms.ts';

export interface BatchColumns {
  receivedAt: string;
  onlineWindowMs: number;
  /** The ids that may stand for a Steam64 (DayZ IDs, console ids). */
  aliasIds: string[];
  /** The Steam64s named: id, DayZ ID, BattlEye GUID, whether to look it up for merges due. */
  steam64s: [string[], string[], string[], boolean[]];
  /** The e_ columns, in the function's order. */
  events: Column[];
}

/** Every platform id an event names: a kill's killer and victim, a presence's or death's player, the shooter of shots. */
function idsOf(events: readonly IngestEvent[]): Set<string> {
  const ids = new Set<string>();
  for (const e of events) {
    if (e.type === 'kill') ids.add(e.killer.platformId).add(e.victim.platformId);
    else if (e.type === 'shots') ids.add(e.platformId);
    else if ('player' in e) ids.add(e.player.platformId);
  }
  return ids;
}

const field = (events: readonly IngestEvent[], pick: (e: IngestEvent) => ArrayElement): Column => events.map(pick);

/** `checkedLately`: whether a Steam64 was looked up for merges lately (src/identities/resolve.ts). */
export function batchColumns(
  events: readonly IngestEvent[],
  arrivalMs: number,
  onlineWindowMs: number,
  checkedLately: (steam64: string) => boolean,
): BatchColumns {
  const ids = [...idsOf(events)];
  const steam64s = ids.filter(isSteam64);
  const kill = (e: IngestEvent) => (e.type === 'kill' ? e : null);
  const status = (e: IngestEvent) => (e.type === 'server.status' ? e : null);
  const eventColumns: Column[] = [
    field(events, (e) => e.id),
    field(events, (e) => isoOfMs(e.sentMs)),
    field(events, (e) => isoOfMs(e.tsMs)),
    field(events, (e) => e.type),
    field(events, (e) =>
      e.type === 'kill' ? e.victim.platformId : e.type === 'shots' ? e.platformId : 'player' in e ? e.player.platformId : null,
    ),
    field(events, (e) => (e.type === 'kill' ? e.victim.name : 'player' in e ? e.player.name : null)),
    field(events, (e) => kill(e)?.killer.platformId),
    field(events, (e) => kill(e)?.killer.name),
    field(events, (e) => kill(e)?.weapon),
    field(events, (e) => kill(e)?.distance),
    field(events, (e) => kill(e)?.isHeadshot),
    field(events, (e) => kill(e)?.hitZone),
    field(events, (e) => (e.type === 'shots' ? e.fired : null)),
    field(events, (e) => (e.type === 'shots' ? e.hits : null)),
    field(events, (e) => status(e)?.online),
    field(events, (e) => status(e)?.map),
    field(events, (e) => status(e)?.gameVersion),
    field(events, (e) => status(e)?.players),
    field(events, (e) => status(e)?.fps),
    field(events, (e) => status(e)?.uptimeSeconds),
  ];
  return {
    receivedAt: isoOfMs(arrivalMs),
    onlineWindowMs,
    aliasIds: ids.filter((id) => !isSteam64(id)),
    steam64s: [steam64s, steam64s.map(dayzIdOf), steam64s.map(battleyeGuidOf), steam64s.map((id) => !checkedLately(id))],
    events: eventColumns,
  };
}
