// SQL of a community's settings: the time zone and clock its dashboard shows times in.
import type { AccountSettings } from '../http/schema-types.ts';
import type { Queryable } from '../store/db.ts';

export async function findSettings(db: Queryable, accountId: string): Promise<AccountSettings | undefined> {
  const { rows } = await db.query<AccountSettings>('SELECT time_zone AS "timeZone", clock FROM accounts WHERE id = $1', [accountId]);
  return rows[0];
}

/** Changes the settings given (a field left out stays); returns them all as they are now. */
export async function saveSettings(
  db: Queryable,
  accountId: string,
  change: Partial<AccountSettings>,
): Promise<AccountSettings | undefined> {
  const { rows } = await db.query<AccountSettings>(
    `UPDATE accounts SET time_zone = coalesce($2, time_zone), clock = coalesce($3, clock) WHERE id = $1
     RETURNING time_zone AS "timeZone", clock`,
    [accountId, change.timeZone ?? null, change.clock ?? null],
  );
  return rows[0];
}
