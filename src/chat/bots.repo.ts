// SQL of an account's chat bots (their secrets are derived, never stored: bot-secrets.ts) and of
// the account's setting that refuses unsigned chat calls.
import type { Queryable } from '../store/db.ts';

export interface ChatBot {
  id: string;
  accountId: string;
  name: string;
  /** The current secret's generation; the one before is valid until previousValidUntil. */
  generation: number;
  previousValidUntil: string | null;
  createdAt: string;
  rotatedAt: string | null;
}

const columns = `id, account_id AS "accountId", name, generation, previous_valid_until AS "previousValidUntil", created_at AS "createdAt", rotated_at AS "rotatedAt"`;

export async function insertBot(db: Queryable, accountId: string, name: string, atIso: string): Promise<ChatBot> {
  const { rows } = await db.query<ChatBot>(
    `INSERT INTO chat_bots (account_id, name, created_at) VALUES ($1, $2, $3) RETURNING ${columns}`,
    [accountId, name, atIso],
  );
  return rows[0]!;
}

export async function listBots(db: Queryable, accountId: string): Promise<ChatBot[]> {
  const { rows } = await db.query<ChatBot>(
    `SELECT ${columns} FROM chat_bots WHERE account_id = $1 AND deleted_at IS NULL ORDER BY created_at, id`,
    [accountId],
  );
  return rows;
}

/** A live bot by id, whatever its account (a signed call names its bot, and acts in its account). */
export async function findBot(db: Queryable, botId: string): Promise<ChatBot | undefined> {
  const { rows } = await db.query<ChatBot>({
    name: 'chat-bot',
    text: `SELECT ${columns} FROM chat_bots WHERE id = $1 AND deleted_at IS NULL`,
    values: [botId],
  });
  return rows[0];
}

/** A new secret generation; the current one stays valid until `previousUntilIso`. */
export async function rotateBot(
  db: Queryable,
  accountId: string,
  botId: string,
  atIso: string,
  previousUntilIso: string,
): Promise<ChatBot | undefined> {
  const { rows } = await db.query<ChatBot>(
    `UPDATE chat_bots SET generation = generation + 1, previous_valid_until = $4, rotated_at = $3
     WHERE id = $1 AND account_id = $2 AND deleted_at IS NULL RETURNING ${columns}`,
    [botId, accountId, atIso, previousUntilIso],
  );
  return rows[0];
}

export async function deleteBot(db: Queryable, accountId: string, botId: string, atIso: string): Promise<boolean> {
  const { rowCount } = await db.query('UPDATE chat_bots SET deleted_at = $3 WHERE id = $1 AND account_id = $2 AND deleted_at IS NULL', [
    botId,
    accountId,
    atIso,
  ]);
  return rowCount === 1;
}

export async function requiresSignature(db: Queryable, accountId: string): Promise<boolean> {
  const { rows } = await db.query<{ on: boolean }>({
    name: 'chat-require-signature',
    text: 'SELECT chat_require_signature AS on FROM accounts WHERE id = $1',
    values: [accountId],
  });
  return rows[0]?.on ?? false;
}

export async function setRequireSignature(db: Queryable, accountId: string, on: boolean): Promise<void> {
  await db.query('UPDATE accounts SET chat_require_signature = $2 WHERE id = $1', [accountId, on]);
}
