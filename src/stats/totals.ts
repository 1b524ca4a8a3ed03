// Per-server player totals as the service holds them. How events change them is a rule of
// ingestion's one call (src/ingest/sql/player-totals.sql), which answers them in the tuple's form.

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

/** The totals' fields in one fixed order: how ingestion's call answers a player's totals. */
export type TotalsTuple = [
  string | null,
  number,
  number,
  number,
  number,
  number,
  number,
  number,
  number | null,
  number | null,
  number | null,
];

export const totalsOfTuple = ([
  name,
  kills,
  deaths,
  headshots,
  killDistanceSum,
  playSeconds,
  shotsFired,
  shotsHit,
  onlineAtMs,
  presenceAtMs,
  nameAtMs,
]: TotalsTuple): PlayerTotals => ({
  name,
  kills,
  deaths,
  headshots,
  killDistanceSum,
  playSeconds,
  shotsFired,
  shotsHit,
  onlineAtMs,
  presenceAtMs,
  nameAtMs,
});

export const emptyTotals = (): PlayerTotals => ({
  name: null,
  kills: 0,
  deaths: 0,
  headshots: 0,
  killDistanceSum: 0,
  playSeconds: 0,
  shotsFired: 0,
  shotsHit: 0,
  onlineAtMs: null,
  presenceAtMs: null,
  nameAtMs: null,
});
