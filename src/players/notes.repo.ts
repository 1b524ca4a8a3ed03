// SQL of an account's private notes about players. Only the players routes read this table.
import type { Queryable } from '../store/db.ts';

export interface NoteRow {
  id: string;
  platformId: string;
  body: string;
  createdById: string | null;
  createdByName: string | null;
  createdAt: string;
}

const columns = `id, platform_id AS "platformId", body, created_by_id AS "createdById", created_by_name AS "createdByName", created_at AS "createdAt"`;

/** The account's notes about the player, newest first. */
export async function notesOf(db: Queryable, accountId: string, platformId: string): Promise<NoteRow[]> {
  const { rows } = await db.query<NoteRow>(
    `SELECT ${columns} FROM player_notes WHERE platform_id = $2 AND account_id = $1 ORDER BY created_at DESC, id`,
    [accountId, platformId],
  );
  return rows;
}

/** Serialises note writes about one player of one account until the transaction ends (the count stays true). */
export async function lockPlayerNotes(db: Queryable, accountId: string, platformId: string): Promise<void> {
  await db.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`notes:${accountId}:${platformId}`]);
}

export async function countNotes(db: Queryable, accountId: string, platformId: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM player_notes WHERE platform_id = $2 AND account_id = $1', [
    accountId,
    platformId,
  ]);
  return rows[0]!.n;
}

export async function insertNote(
  db: Queryable,
  accountId: string,
  platformId: string,
  body: string,
  by: { id: string | null; name: string | null },
  atIso: string,
): Promise<NoteRow> {
  const { rows } = await db.query<NoteRow>(
    `INSERT INTO player_notes (account_id, platform_id, body, created_by_id, created_by_name, created_at)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${columns}`,
    [accountId, platformId, body, by.id, by.name, atIso],
  );
  return rows[0]!;
}

/** Deletes the account's note about the player; undefined when it has no such note. */
export async function deleteNote(db: Queryable, accountId: string, platformId: string, noteId: string): Promise<NoteRow | undefined> {
  const { rows } = await db.query<NoteRow>(
    `DELETE FROM player_notes WHERE id = $3 AND account_id = $1 AND platform_id = $2 RETURNING ${columns}`,
    [accountId, platformId, noteId],
  );
  return rows[0];
}
