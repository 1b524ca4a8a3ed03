// Reads that may be served by the read replica (DATABASE_READ_URL): the Data API's, the trust
// lookup's and the partner export's. A read may name a WAL position its answer must not fall behind
// (the one a cursor carries, docs/decisions.md): the replica serves it only once it has replayed
// that far, else the primary does, so paging never steps back to an older view. A replica that is
// down or refuses connections sends reads to the primary: said once in the log when it goes and once
// when it is back, and not tried again for a few seconds in between.
import type { Core } from '../core.ts';
import type { Db, DbClient, Queryable } from './db.ts';

export type ReadSource = 'replica' | 'primary';

/**
 * SQL for the newest WAL position a statement's view can hold, evaluated after its snapshot: what a
 * replica has replayed, or what the primary has flushed (a commit becomes visible once flushed).
 */
export const viewPositionSql = 'CASE WHEN pg_is_in_recovery() THEN pg_last_wal_replay_lsn() ELSE pg_current_wal_flush_lsn() END';

/** How long reads skip a replica that failed before trying it again. */
export const replicaRetryMs = 5000;

interface ReplicaState {
  down: boolean;
  retryAtMs: number;
}

const states = new WeakMap<Db, ReplicaState>();

function stateOf(readDb: Db): ReplicaState {
  let state = states.get(readDb);
  if (!state) states.set(readDb, (state = { down: false, retryAtMs: 0 }));
  return state;
}

/** Node's errors of a connection that could not be made or was lost. */
const connectionCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
]);

/**
 * Whether an error says the replica cannot serve now: no connection (refused, lost, timed out), a
 * server shutting down or starting (SQLSTATE 08..., 57P01-57P03), or a read cancelled by a conflict
 * with the replay (40001 on a standby). Any other error is the read's own and is thrown as it is.
 */
export function replicaUnavailable(err: unknown): boolean {
  const { code, message } = (err ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string') return connectionCodes.has(code) || /^08/.test(code) || /^57P0[123]$/.test(code) || code === '40001';
  return /Connection terminated|timeout exceeded when trying to connect|connection error/i.test(String(message));
}

function markDown(deps: Pick<Core, 'readDb' | 'clock' | 'log'>, err: unknown): void {
  const state = stateOf(deps.readDb);
  state.retryAtMs = deps.clock.now() + replicaRetryMs;
  if (state.down) return;
  state.down = true;
  deps.log.warn({ err }, `read replica unavailable; its reads go to the primary (tried again every ${replicaRetryMs / 1000} s)`);
}

function markUp(deps: Pick<Core, 'readDb' | 'log'>): void {
  const state = stateOf(deps.readDb);
  if (!state.down) return;
  state.down = false;
  deps.log.info('read replica back; its reads go to it again');
}

/**
 * A replica connection whose view is at least `after` (a pg_lsn), or undefined when the primary
 * must serve: the replica is failing, or it has not replayed that far yet.
 */
async function replicaClient(deps: Pick<Core, 'readDb' | 'clock' | 'log'>, after: string | null): Promise<DbClient | undefined> {
  const state = stateOf(deps.readDb);
  if (state.down && deps.clock.now() < state.retryAtMs) return undefined;
  let client: DbClient | undefined;
  try {
    client = await deps.readDb.connect();
    // Checked on this connection before the read's snapshot is taken: that snapshot is at least this new.
    if (after !== null) {
      const { rows } = await client.query<{ caught: boolean }>({
        name: 'replica-caught-up',
        text: `SELECT (${viewPositionSql}) >= $1::pg_lsn AS caught`,
        values: [after],
      });
      if (!rows[0]?.caught) {
        client.release();
        markUp(deps);
        return undefined;
      }
    }
    markUp(deps);
    return client;
  } catch (err) {
    client?.release(true);
    if (!replicaUnavailable(err)) throw err;
    markDown(deps, err);
    return undefined;
  }
}

/**
 * Runs a read on the replica when it may serve it (it answers, and it has replayed `after`), else on
 * the primary; a replica lost during the read has it run again on the primary. `read` only reads.
 */
export async function readView<T>(
  deps: Pick<Core, 'db' | 'readDb' | 'clock' | 'log'>,
  after: string | null,
  read: (db: Queryable, source: ReadSource) => Promise<T>,
): Promise<T> {
  if (deps.readDb === deps.db) return read(deps.db, 'primary');
  const client = await replicaClient(deps, after);
  if (!client) return read(deps.db, 'primary');
  let broken = false;
  try {
    return await read(client, 'replica');
  } catch (err) {
    if (!replicaUnavailable(err)) throw err;
    broken = (err as { code?: unknown }).code !== '40001';
    if (broken) markDown(deps, err);
    return read(deps.db, 'primary');
  } finally {
    client.release(broken);
  }
}
