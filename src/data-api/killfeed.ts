// Killfeed pages. Kill timestamps are unique per server (to the microsecond), so the ts of a
// page's last kill is an exact cursor: paging never skips or repeats a kill.
import type { Deps } from '../deps.ts';
import { killsBefore } from './kills.repo.ts';
import type { Kill } from './kills.repo.ts';

export async function killfeedPage(deps: Deps, serverId: string, before: string | undefined, limit: number): Promise<{ kills: Kill[]; nextCursor: string | null }> {
  const rows = await killsBefore(deps.db, serverId, before ?? new Date(deps.clock.now()).toISOString(), limit + 1);
  const kills = rows.slice(0, limit);
  return { kills, nextCursor: rows.length > limit ? kills.at(-1)!.ts : null };
}
