// Killfeed pages. Kill timestamps are unique per server (to the microsecond), so the ts of a
// page's last kill is an exact cursor: paging never skips or repeats a kill. The newest page (no
// cursor) is what pollers ask for again and again: it is rendered once and kept in the server's
// page cache, which every ingested batch drops.
import type { Core } from '../core.ts';
import type { KillfeedPage } from '../http/schema-types.ts';
import { badRequest } from '../http/errors.ts';
import { cachedPage, pageGeneration, storePage } from '../stats/stats.store.ts';
import { readThrough } from '../stats/server-reads.ts';
import { hasKillSince, killsBefore } from './kills.repo.ts';
import type { ServerReadDeps } from '../stats/server-reads.ts';

const pageTtlMs = 60_000;

async function renderPage(deps: Core, serverId: string, before: string, limit: number): Promise<string> {
  const rows = await killsBefore(deps.db, serverId, before, limit + 1);
  const kills = rows.slice(0, limit);
  return JSON.stringify({ kills, nextCursor: rows.length > limit ? kills.at(-1)!.ts : null } satisfies KillfeedPage);
}

/** The page as JSON text, ready to send. */
export async function killfeedPage(
  deps: Core & ServerReadDeps,
  serverId: string,
  before: string | undefined,
  limit: number,
): Promise<string> {
  if (before !== undefined) {
    return renderPage(deps, serverId, before, limit).catch((err: unknown) => {
      // A date-time the schema admits but PostgreSQL cannot read (year 0000, a UTC offset beyond
      // ±15:59) is a data exception (SQLSTATE class 22): the client's parameter, not a failure.
      if (/^22/.test(String((err as { code?: unknown }).code))) throw badRequest('query parameter before is out of range');
      throw err;
    });
  }
  const field = `kills:${limit}`;
  const cached = await readThrough(deps, serverId, field, () => cachedPage(deps.redis, serverId, field));
  if (cached) return cached;
  const generation = await pageGeneration(deps.redis, serverId);
  const now = new Date(deps.clock.now()).toISOString();
  const page = await renderPage(deps, serverId, now, limit);
  // A kill stamped ahead of now belongs on this page later, without a new batch to drop it: not kept.
  if (!(await hasKillSince(deps.db, serverId, now))) await storePage(deps.redis, serverId, generation, field, page, pageTtlMs);
  return page;
}
