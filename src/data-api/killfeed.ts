// Killfeed pages. Kill timestamps are unique per server (to the microsecond), so the ts of a
// page's last kill is an exact cursor: paging never skips or repeats a kill.
import type { Deps } from '../deps.ts';
import { badRequest } from '../http/errors.ts';
import { killsBefore } from './kills.repo.ts';
import type { Kill } from './kills.repo.ts';

export async function killfeedPage(deps: Deps, serverId: string, before: string | undefined, limit: number): Promise<{ kills: Kill[]; nextCursor: string | null }> {
  const rows = await killsBefore(deps.db, serverId, before ?? new Date(deps.clock.now()).toISOString(), limit + 1).catch((err: unknown) => {
    // A date-time the schema admits but PostgreSQL cannot read (year 0000, a UTC offset beyond
    // ±15:59) is a data exception (SQLSTATE class 22): the client's parameter, not a failure.
    if (before !== undefined && /^22/.test(String((err as { code?: unknown }).code))) throw badRequest('query parameter before is out of range');
    throw err;
  });
  const kills = rows.slice(0, limit);
  return { kills, nextCursor: rows.length > limit ? kills.at(-1)!.ts : null };
}
