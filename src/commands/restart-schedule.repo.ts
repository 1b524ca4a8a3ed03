// SQL of restart schedules: one per server, with the next shutdown time the worker acts on.
import type { Queryable } from '../store/db.ts';
import type { RestartSchedule } from './restart-schedule.ts';

export interface StoredSchedule extends RestartSchedule {
  serverId: string;
  accountId: string;
  nextAt: string | null;
  updatedAt: string;
}

const columnsOf = (t: string) => `${t}.server_id AS "serverId", ${t}.account_id AS "accountId", ${t}.enabled, ${t}.time_zone AS "timeZone",
  ${t}.times, ${t}.warning_seconds AS "warningSeconds", ${t}.message, ${t}.next_at AS "nextAt", ${t}.updated_at AS "updatedAt"`;
const columns = columnsOf('server_restart_schedules');

export async function findSchedule(db: Queryable, serverId: string): Promise<StoredSchedule | undefined> {
  const { rows } = await db.query<StoredSchedule>(`SELECT ${columns} FROM server_restart_schedules WHERE server_id = $1`, [serverId]);
  return rows[0];
}

export async function saveSchedule(
  db: Queryable,
  serverId: string,
  accountId: string,
  s: RestartSchedule,
  nextAt: string | null,
  nowIso: string,
): Promise<StoredSchedule> {
  const { rows } = await db.query<StoredSchedule>(
    `INSERT INTO server_restart_schedules (server_id, account_id, enabled, time_zone, times, warning_seconds, message, next_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     ON CONFLICT (server_id) DO UPDATE SET enabled = $3, time_zone = $4, times = $5, warning_seconds = $6, message = $7, next_at = $8, updated_at = $9
     RETURNING ${columns}`,
    [serverId, accountId, s.enabled, s.timeZone, s.times, s.warningSeconds, s.message, nextAt, nowIso],
  );
  return rows[0]!;
}

export async function deleteSchedule(db: Queryable, serverId: string): Promise<boolean> {
  const { rowCount } = await db.query('DELETE FROM server_restart_schedules WHERE server_id = $1', [serverId]);
  return rowCount === 1;
}

/** Enabled schedules of live servers whose next restart is due to be queued at `nowIso`, locked. */
export async function dueSchedules(db: Queryable, nowIso: string, limit: number): Promise<StoredSchedule[]> {
  const { rows } = await db.query<StoredSchedule>(
    `SELECT ${columnsOf('r')} FROM server_restart_schedules r JOIN servers s ON s.id = r.server_id AND s.revoked_at IS NULL
     WHERE r.enabled AND r.next_at - r.warning_seconds * interval '1 second' <= $1
     ORDER BY r.next_at LIMIT $2 FOR UPDATE OF r SKIP LOCKED`,
    [nowIso, limit],
  );
  return rows;
}

export async function setNextAt(db: Queryable, serverId: string, nextAt: string): Promise<void> {
  await db.query('UPDATE server_restart_schedules SET next_at = $2 WHERE server_id = $1', [serverId, nextAt]);
}
