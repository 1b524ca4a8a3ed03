// Keeps the event claims of the last 7 days, by the service clock, and no more: adds the partitions
// of the coming days before their claims arrive, drops a day's partition once every claim in it was
// received more than 7 days ago (a late claim keeps its day), deletes the expired claims of the
// default partition (other days: a backfill of old logs, a clock far ahead) and of the previous
// version's table.
import type { Core } from '../core.ts';
import { isoOfMs } from '../store/iso-time.ts';
import {
  addClaimDay,
  claimDays,
  deleteOtherClaimsBefore,
  dropClaimDayIfExpired,
  otherDaysTable,
  summariseReceipts,
} from './event-claims.repo.ts';

/** How long an event's claim is kept after it was received: a retry later than that counts again. */
export const eventIdRetentionMs = 7 * 24 * 3600_000;

const dayMs = 24 * 3600_000;

/** The days whose partitions are added ahead: yesterday (agents catching up) to a week ahead. */
const daysAhead = { from: -1, to: 7 };

export interface ClaimsUpkeep {
  added: string[];
  dropped: string[];
  deleted: number;
}

/** One run of the upkeep; answers what it changed, or undefined when it changed nothing. */
export async function keepEventClaims(deps: Core): Promise<ClaimsUpkeep | undefined> {
  const now = deps.clock.now();
  const today = Math.floor(now / dayMs) * dayMs;
  const expiredBefore = isoOfMs(now - eventIdRetentionMs);
  const added: string[] = [];
  for (let d = daysAhead.from; d <= daysAhead.to; d++) {
    const day = isoOfMs(today + d * dayMs).slice(0, 10);
    if (await addClaimDay(deps.db, day)) added.push(day);
  }
  const dropped: string[] = [];
  const existing = await claimDays(deps.db);
  for (const table of [...existing.map((d) => d.table), otherDaysTable]) await summariseReceipts(deps.db, table);
  for (const claimDay of existing) {
    const dayEndMs = Date.parse(claimDay.day) + dayMs;
    if (dayEndMs <= now - eventIdRetentionMs && (await dropClaimDayIfExpired(deps.db, claimDay, expiredBefore))) dropped.push(claimDay.day);
  }
  const deleted = await deleteOtherClaimsBefore(deps.db, expiredBefore);
  return added.length + dropped.length + deleted > 0 ? { added, dropped, deleted } : undefined;
}
