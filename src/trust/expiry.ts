// Worker job: approved pool entries whose expiry has passed become `expired` (a tombstone in the
// export feed); the score already treats them as expired from that moment, this makes it visible
// to partners. Old resume marks of the feed are thinned to one an hour. Idempotent.
import { expireDueEntries } from './pool.repo.ts';
import { pruneFeedMarks } from './export.repo.ts';
import { invalidateTrustScores } from './lookup.ts';
import type { TrustDeps } from './lookup.ts';

export async function expireTrustEntries(deps: TrustDeps): Promise<{ expired: number } | undefined> {
  const at = new Date(deps.clock.now()).toISOString();
  let expired = 0;
  for (;;) {
    const players = await expireDueEntries(deps.db, at);
    if (players.length === 0) break;
    expired += players.length;
    await invalidateTrustScores(deps, players);
  }
  await pruneFeedMarks(deps.db);
  return expired > 0 ? { expired } : undefined;
}
