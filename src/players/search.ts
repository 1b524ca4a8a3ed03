// GET /api/players?q=: the account's players (seen on one of its live servers) by one field. An id
// in any form finds that player exactly; anything else is the start of a name, any case, among
// every name seen on the account's servers. No cursor: a page of `limit`, and `more` when a longer
// q would narrow it (a person typing is the reader).
import type { Core } from '../core.ts';
import { badRequest } from '../http/errors.ts';
import type { PlayerSearch, PlayerSearchHit } from '../http/schema-types.ts';
import { resolvePlatformId } from '../identities/resolve.ts';
import { platformIdOf } from '../trust/player.repo.ts';
import { playerIdsOf } from './profile.ts';
import { parseSearchTerm } from './search-query.ts';
import { hitRows, namePage, seenByAccount } from './search.repo.ts';

/** Pages of names read to fill one page of players (a player seen on many servers under one name takes a row each). */
const maxRounds = 8;

export async function searchPlayers(deps: Core, accountId: string, q: string, limit: number): Promise<PlayerSearch> {
  const term = parseSearchTerm(q, deps.clock.now());
  if (!term) throw badRequest('query parameter q must not be only spaces');
  if (term.match === 'id') {
    const named = await platformIdOf(deps.db, term.kind, term.value);
    const platformId = named === undefined ? undefined : await resolvePlatformId(deps.db, named);
    const found = platformId !== undefined && (await seenByAccount(deps.db, accountId, platformId));
    return { match: 'id', players: found ? await hits(deps, accountId, new Map([[platformId, null]])) : [], more: false };
  }
  const matched = await playersByName(deps, accountId, term.prefix, limit + 1);
  const more = matched.size > limit;
  const page = new Map([...matched].slice(0, limit));
  return { match: 'name', players: await hits(deps, accountId, page), more };
}

/** The first `wanted` distinct players whose name (current or earlier) starts with the prefix, with the first name that matched. */
async function playersByName(deps: Core, accountId: string, prefix: string, wanted: number): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  let after: { key: string; platformId: string } | null = null;
  for (let round = 0; round < maxRounds && found.size < wanted; round += 1) {
    const rows = await namePage(deps.db, accountId, prefix, after, wanted);
    for (const row of rows) if (!found.has(row.platformId) && found.size < wanted) found.set(row.platformId, row.name);
    if (rows.length < wanted) break;
    after = { key: rows.at(-1)!.key, platformId: rows.at(-1)!.platformId };
  }
  return found;
}

async function hits(deps: Core, accountId: string, matched: Map<string, string | null>): Promise<PlayerSearchHit[]> {
  const ids = [...matched.keys()];
  if (ids.length === 0) return [];
  const rows = await hitRows(deps.db, accountId, ids);
  return ids.map((id) => {
    const row = rows.get(id);
    return {
      // Console ids other communities linked are shown too: the account's servers saw the player.
      ids: playerIdsOf(id, row, true),
      lastName: row?.lastName ?? null,
      matchedName: matched.get(id) ?? null,
      lastSeenAt: row?.lastSeenAt ?? null,
      servers: row?.servers ?? [],
    };
  });
}
