// What a player merge (src/identities/merge.ts) changes beyond statistics: the player's queue
// entries move to the Steam64, moved bans get its DayZ ID, and the files of every account that bans
// or queues the player are synced again (a DayZ-ID line becomes a Steam64 and DayZ ID pair).
import type { Queryable } from '../store/db.ts';
import { fillDayzIds } from '../bans/ban.repo.ts';
import { dayzIdOf } from '../identities/id-forms.ts';
import { moveQueueEntries } from '../queue/queue.repo.ts';
import { insertPlayerRequests } from './sync-requests.repo.ts';

/** Runs in the merge's transaction, before its other moves. */
export async function moveGameFileRecords(tx: Queryable, fromId: string, steam64: string, atIso: string): Promise<void> {
  await insertPlayerRequests(tx, [fromId, steam64], atIso);
  await moveQueueEntries(tx, fromId, steam64);
}

/** Runs in the merge's transaction, after the bans moved. */
export async function completeMovedBans(tx: Queryable, steam64: string): Promise<void> {
  await fillDayzIds(tx, steam64, dayzIdOf(steam64));
}
