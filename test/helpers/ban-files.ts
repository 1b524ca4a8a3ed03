// Records ban-file syncs at chosen times, as the worker's sync records them (the account's file
// entries, then each server's sync time), without writing files or moving the test clock.
import type { Db } from '../../src/store/db.ts';
import { inTransaction } from '../../src/store/db.ts';
import { recordBanFile, saveSync } from '../../src/game-files/game-files.repo.ts';

export async function recordBanFileSync(db: Db, accountId: string, serverIds: string[], atMs: number): Promise<void> {
  const atIso = new Date(atMs).toISOString();
  await inTransaction(db, async (tx) => {
    await recordBanFile(tx, accountId, atIso);
    for (const serverId of serverIds) await saveSync(tx, serverId, 'bans', null, '', 0, atIso);
  });
}
