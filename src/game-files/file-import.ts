// The first sync of a game file imports what an admin wrote into it by hand (docs/game-files.md), so nothing
// is lost when the service takes the file over: ban.txt entries become bans with source `import`
// (a Steam64 and its own DayZ ID line are one ban), priority.txt entries become permanent queue
// entries of that server.
import type { DbClient } from '../store/db.ts';
import { insertAudit } from '../audit/audit.repo.ts';
import { dayzIdOf, isSteam64 } from '../identities/id-forms.ts';
import { activeBanOf, insertBan, lockPlayerBans } from '../bans/ban.repo.ts';
import { canonicalPlatformId } from '../bans/bans.ts';
import { queuedOnServer, upsertQueueEntry } from '../queue/queue.repo.ts';
import { bansOfIds } from './ban-file.ts';

const importer = (file: string) => ({ id: null, name: `${file} import` });

/** Imports the ids of a server's ban file as bans of the account; returns the new ban ids. */
export async function importBanFile(tx: DbClient, accountId: string, serverId: string, ids: string[], nowIso: string): Promise<string[]> {
  const created: string[] = [];
  for (const raw of bansOfIds(ids)) {
    const platformId = await canonicalPlatformId(tx, raw);
    const steam = isSteam64(platformId);
    await lockPlayerBans(tx, accountId, steam ? dayzIdOf(platformId) : platformId);
    if (await activeBanOf(tx, accountId, steam ? [platformId, dayzIdOf(platformId)] : [platformId], nowIso)) continue;
    created.push(
      await insertBan(tx, accountId, {
        platformId,
        dayzId: steam ? dayzIdOf(platformId) : null,
        source: 'import',
        bannedAt: nowIso,
        expiresAt: null,
        createdBy: importer('ban.txt'),
      }),
    );
  }
  if (created.length > 0) {
    await insertAudit(tx, {
      accountId,
      at: nowIso,
      actorType: 'system',
      actorId: null,
      actorName: 'ban.txt import',
      action: 'ban.import-file',
      targetType: 'server',
      targetId: serverId,
      ip: null,
      details: { banIds: created, entries: ids.length },
    });
  }
  return created;
}

/** Imports the ids of a server's priority file as permanent queue entries of that server. */
export async function importPriorityFile(
  tx: DbClient,
  accountId: string,
  serverId: string,
  ids: string[],
  nowIso: string,
): Promise<string[]> {
  const created: string[] = [];
  for (const raw of ids) {
    const platformId = await canonicalPlatformId(tx, raw);
    if (await queuedOnServer(tx, accountId, serverId, platformId, nowIso)) continue;
    const { entry, created: isNew } = await upsertQueueEntry(
      tx,
      accountId,
      {
        platformId,
        serverIds: [serverId],
        expiresAt: null,
        source: 'import',
        createdBy: importer('priority.txt'),
      },
      nowIso,
    );
    if (isNew) created.push(entry.id);
  }
  if (created.length > 0) {
    await insertAudit(tx, {
      accountId,
      at: nowIso,
      actorType: 'system',
      actorId: null,
      actorName: 'priority.txt import',
      action: 'queue.import-file',
      targetType: 'server',
      targetId: serverId,
      ip: null,
      details: { entryIds: created, entries: ids.length },
    });
  }
  return created;
}
