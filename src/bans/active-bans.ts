// The bans in force on a server as its agent holds them, for live enforcement: every id
// form known, so the agent matches a joining player by the BattlEye GUID it verifies, or by the id
// the admin log names. One rendering per request, tagged by its content: an agent asking again with
// the tag it holds gets a 304 and no body.
import type { ActiveBans } from '../http/schema-types.ts';
import { createHash } from 'node:crypto';
import type { Queryable } from '../store/db.ts';
import { battleyeGuidOf, dayzIdOf, isSteam64 } from '../identities/id-forms.ts';
import { activeBansPage } from './ban.repo.ts';

const pageSize = 5000;

export interface ActiveBansFile {
  body: string;
  etag: string;
}

export async function activeBansOf(db: Queryable, accountId: string, nowIso: string): Promise<ActiveBansFile> {
  const bans = [];
  for (let after: string | null = null; ;) {
    const page = await activeBansPage(db, accountId, nowIso, after, pageSize);
    for (const ban of page) {
      const steam64 = isSteam64(ban.platformId) ? ban.platformId : null;
      bans.push({
        banId: ban.id,
        platformId: ban.platformId,
        steam64,
        dayzId: steam64 ? (ban.dayzId ?? dayzIdOf(steam64)) : ban.platformId.endsWith('=') ? ban.platformId : null,
        beGuid: steam64 ? battleyeGuidOf(steam64) : null,
        reason: ban.reason,
        expiresAt: ban.expiresAt,
      });
    }
    if (page.length < pageSize) break;
    after = page.at(-1)!.id;
  }
  const body = JSON.stringify({ bans } satisfies ActiveBans);
  return { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
}
