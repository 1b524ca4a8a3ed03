// Two per-server totals of one person (kept under a DayZ ID or console id, and under the Steam64)
// combined into one. Pure.
import type { PlayerTotals } from '../stats/totals.ts';

const newer = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.max(a, b));

/** Counts are summed; the name set last wins; the online window follows the newest presence event. */
export function combineTotals(a: PlayerTotals, b: PlayerTotals): PlayerTotals {
  const nameFromB = b.name !== null && (a.name === null || (b.nameAtMs ?? -Infinity) > (a.nameAtMs ?? -Infinity));
  const presenceFromB = b.presenceAtMs !== null && (a.presenceAtMs === null || b.presenceAtMs > a.presenceAtMs);
  return {
    name: nameFromB ? b.name : a.name,
    nameAtMs: newer(a.nameAtMs, b.nameAtMs),
    kills: a.kills + b.kills,
    deaths: a.deaths + b.deaths,
    headshots: a.headshots + b.headshots,
    killDistanceSum: a.killDistanceSum + b.killDistanceSum,
    playSeconds: a.playSeconds + b.playSeconds,
    shotsFired: a.shotsFired + b.shotsFired,
    shotsHit: a.shotsHit + b.shotsHit,
    onlineAtMs: presenceFromB ? b.onlineAtMs : a.onlineAtMs,
    presenceAtMs: newer(a.presenceAtMs, b.presenceAtMs),
  };
}
