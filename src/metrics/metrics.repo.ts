// The store figures GET /metrics reads when scraped.
import type { Queryable } from '../store/db.ts';

export async function pendingCommandCount(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM server_commands WHERE status = 'pending'");
  return rows[0]!.n;
}
