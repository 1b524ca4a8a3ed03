// The bench's data: one community with a "read" server (100,000 ranked players, 1,000,000 kills)
// and an "ingest" server that the ingestion measurement writes to. Generated with set-based SQL
// in its own database and schema, kept between runs when the counts still match, and mirrored
// into Redis (under its own key prefix) by the service's own rebuildDerivedState. The community's
// owner ("bench-owner") signs the controller requests in with a session made per run.
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Cluster } from 'ioredis';
import type { Deps } from '../src/deps.ts';
import { mintApiKey } from '../src/accounts/api-key.ts';
import { findAccount, insertAccount } from '../src/accounts/account.repo.ts';
import { rotateIngestToken } from '../src/servers/server.ts';
import { startSession } from '../src/auth/session.ts';
import { revokeUserSessions } from '../src/auth/session.repo.ts';
import { createUser } from '../src/users/users.ts';
import { findUserForLogin } from '../src/users/user.repo.ts';
import { rebuildDerivedState } from '../src/derived/rebuild.ts';
import { ensureDatabase, migrate } from '../src/store/migrate.ts';
import { keepEventClaims } from '../src/ingest/event-claims.ts';

export const fixtureSize = { players: 100_000, kills: 1_000_000 };

export const ids = {
  account: 'b3c0a000-0000-4000-8000-000000000001',
  readServer: 'b3c0a000-0000-4000-8000-000000000002',
  ingestServer: 'b3c0a000-0000-4000-8000-000000000003',
  /** The community of the servers the scenarios make (the fleet, each backfill's server). */
  loadAccount: 'b3c0a000-0000-4000-8000-000000000009',
};

/** The scenarios' community, made by the first scenario that needs it. */
export async function loadAccount(deps: Deps): Promise<string> {
  if (!(await findAccount(deps.db, ids.loadAccount))) await insertAccount(deps.db, 'bench load community', ids.loadAccount);
  return ids.loadAccount;
}

/** Platform id (a Steam64) of fixture player n (read server: 1..100,000; ingest server: 900,001 and up). */
export const platformId = (n: number) => `765611980${String(n).padStart(8, '0')}`;
const platformIdSql = (n: string) => `'765611980' || lpad((${n})::text, 8, '0')`;

export interface Credentials {
  apiKey: string;
  ingestToken: string;
  /** Session JWT of the bench community's owner (signed with deps.config.jwtSecret). */
  sessionToken: string;
}

/** The owner of the bench community; created once (its password is never used), kept between runs. */
const ownerName = 'bench-owner';

const seconds = (startMs: number) => ((performance.now() - startMs) / 1000).toFixed(1);

export async function prepareDatabase(deps: Deps, say: (line: string) => void): Promise<void> {
  const { databaseUrl, databaseSchema } = deps.config;
  await ensureDatabase(databaseUrl);
  await migrate(databaseUrl, databaseSchema, deps.log);
  if (await fixtureComplete(deps)) {
    say(
      `fixture: reusing ${fixtureSize.players.toLocaleString('en')} players / ${fixtureSize.kills.toLocaleString('en')} kills in schema ${databaseSchema}`,
    );
  } else {
    const started = performance.now();
    say(`fixture: generating in schema ${databaseSchema} (one-time, reused by later runs) ...`);
    await deps.db.query(`DROP SCHEMA IF EXISTS ${databaseSchema} CASCADE`);
    await migrate(databaseUrl, databaseSchema, deps.log);
    await generate(deps);
    say(`fixture: generated in ${seconds(started)} s`);
  }
  // The coming days' partitions of event claims, as the worker adds them at its start.
  await keepEventClaims(deps);
  await resetIngestServer(deps);
  say(await databaseState(deps));
}

/**
 * The PostgreSQL settings that move ingestion's figures between machines, and how many event claims
 * the bench database keeps from earlier runs (their indexes grow with every run's, for 7 days).
 */
async function databaseState(deps: Deps): Promise<string> {
  const {
    rows: [s],
  } = await deps.db.query<Record<string, string>>(
    `SELECT current_setting('server_version') AS version, current_setting('autovacuum') AS autovacuum,
       current_setting('shared_buffers') AS "sharedBuffers", current_setting('max_wal_size') AS "maxWalSize",
       current_setting('synchronous_commit') AS "synchronousCommit",
       (SELECT pg_size_pretty(sum(pg_indexes_size(relid))) FROM pg_partition_tree('event_claims')) AS "eventIdIndex"`,
  );
  return (
    `postgres ${s!.version}: autovacuum ${s!.autovacuum}, shared_buffers ${s!.sharedBuffers}, max_wal_size ${s!.maxWalSize}, ` +
    `synchronous_commit ${s!.synchronousCommit}; the event claims kept from earlier runs: indexes of ${s!.eventIdIndex}`
  );
}

async function fixtureComplete(deps: Deps): Promise<boolean> {
  const { rows } = await deps.db.query<{ servers: number; ranked: number; kills: number; current: boolean }>(
    `SELECT (SELECT count(*) FROM servers WHERE account_id = $2)::int AS servers,
            (SELECT count(*) FROM server_players WHERE server_id = $1 AND kills + deaths > 0)::int AS ranked,
            (SELECT count(*) FROM kills WHERE server_id = $1)::int AS kills,
            EXISTS (SELECT 1 FROM server_players WHERE server_id = $1 AND platform_id = $3) AS current`,
    [ids.readServer, ids.account, platformId(1)],
  );
  const r = rows[0]!;
  // A fixture made before the player ids became real Steam64s is made again, and so is one whose
  // community holds servers besides its two (the fleet's, before it had a community of its own).
  return r.servers === 2 && r.ranked === fixtureSize.players && r.kills === fixtureSize.kills && r.current;
}

async function generate(deps: Deps): Promise<void> {
  const { players, kills } = fixtureSize;
  const client = await deps.db.connect();
  try {
    await client.query('BEGIN');
    await client.query('SET LOCAL synchronous_commit = off');
    await client.query(`INSERT INTO accounts (id, name) VALUES ($1, 'bench community')`, [ids.account]);
    // Token hashes are placeholders: every run gives the ingest server a fresh token (see
    // credentials below); nothing can ingest into the read server.
    await client.query(
      `INSERT INTO servers (id, account_id, name, ingest_token_hash, map, game_version, online, players, fps, uptime_seconds)
       VALUES ($1, $3, 'bench read server', '\\x01', 'chernarusplus', '1.26.159040', true, 60, 58.5, 86400),
              ($2, $3, 'bench ingest server', '\\x02', 'livonia', '1.26.159040', true, 40, 60, 3600)`,
      [ids.readServer, ids.ingestServer, ids.account],
    );
    // Every kill has its own millisecond (25 ms apart plus jitter below 25 ms): (server_id, ts) is
    // unique as the schema requires. Victims cycle through all players (exactly 10 deaths each,
    // so every player is ranked); killers are skewed towards low player numbers, so the ranking
    // has a long tail like a real server's.
    await client.query(
      `INSERT INTO kills (server_id, ts, killer_platform_id, killer_name, victim_platform_id, victim_name, weapon, distance, is_headshot, hit_zone)
       SELECT $1, $2::timestamptz - make_interval(secs => (g.i * 25 + g.jitter) / 1000.0),
              ${platformIdSql('g.killer')}, 'player ' || g.killer, ${platformIdSql('g.victim')}, 'player ' || g.victim,
              (ARRAY['M4A1', 'AKM', 'SVD', 'Mosin 91/30', 'MP5-K', 'FX-45'])[1 + g.i % 6],
              round((random() * 400)::numeric, 1)::float8, g.headshot,
              CASE WHEN g.headshot THEN 'head' ELSE (ARRAY['torso', 'legs', 'arms'])[1 + g.i % 3] END
       FROM (
         SELECT i, jitter, victim, CASE WHEN killer = victim THEN killer % $4::int + 1 ELSE killer END AS killer, headshot
         FROM (
           SELECT i, floor(random() * 25)::int AS jitter, (1 + (i::int8 * 7919) % $4::int)::int AS victim,
                  1 + floor($4::int * random() ^ 2)::int AS killer, random() < 0.2 AS headshot
           FROM generate_series(1, $3::int) AS i
         ) raw
       ) g`,
      [ids.readServer, new Date().toISOString(), kills, players],
    );
    // Totals consistent with the kills above; the play time and shot counters are made up.
    await client.query(
      `INSERT INTO server_players (server_id, platform_id, name, kills, deaths, headshots, kill_distance_sum,
         play_seconds, shots_fired, shots_hit, online_at)
       SELECT $1, p.id, 'player ' || p.n, coalesce(k.kills, 0), coalesce(d.deaths, 0), coalesce(k.headshots, 0),
              coalesce(k.distance, 0), 600 + (p.n * 37) % 360000, coalesce(k.kills, 0) * 9 + p.n % 50, coalesce(k.kills, 0) * 3 + p.n % 7, NULL
       FROM (SELECT n, ${platformIdSql('n')} AS id FROM generate_series(1, $2::int) AS n) p
       LEFT JOIN (SELECT killer_platform_id AS id, count(*)::int AS kills, (count(*) FILTER (WHERE is_headshot))::int AS headshots,
                         sum(distance) AS distance
                  FROM kills WHERE server_id = $1 GROUP BY 1) k ON k.id = p.id
       LEFT JOIN (SELECT victim_platform_id AS id, count(*)::int AS deaths FROM kills WHERE server_id = $1 GROUP BY 1) d ON d.id = p.id`,
      [ids.readServer, players],
    );
    await client.query(
      `INSERT INTO players (platform_id, name, first_seen_at, last_seen_at)
       SELECT platform_id, name, now() - interval '30 days', now() FROM server_players WHERE server_id = $1
       ON CONFLICT (platform_id) DO NOTHING`,
      [ids.readServer],
    );
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
  await deps.db.query('VACUUM (ANALYZE) kills, server_players, players');
}

/**
 * Drops what earlier runs ingested, so the ingest server starts empty every run. The ANALYZE
 * makes that start the same every run, too: the planner knows the ingest server as one without
 * kills, like any newly registered server (and autovacuum re-analyzes only after ~10% of the
 * table has changed).
 */
async function resetIngestServer(deps: Deps): Promise<void> {
  // Its event claims stay: every run's ids are new, and claims are found by their day, not their
  // server (deleting them by server would read every day's), and expire with their days.
  for (const table of ['kills', 'server_players']) {
    await deps.db.query(`DELETE FROM ${table} WHERE server_id = $1`, [ids.ingestServer]);
  }
  await deps.db.query('VACUUM (ANALYZE) kills, server_players');
  // A fresh status sample, so the status route reports the read server online.
  await deps.db.query(
    `UPDATE servers SET status_at = now(), last_seen_at = now(), metrics_at = now(), online = true WHERE id = ANY($1::uuid[])`,
    [[ids.readServer, ids.ingestServer]],
  );
}

/** Fresh secrets for this run through the service's own functions; older bench keys are revoked. */
export async function credentials(deps: Deps): Promise<Credentials> {
  await deps.db.query('UPDATE api_keys SET revoked_at = now() WHERE account_id = $1 AND revoked_at IS NULL', [ids.account]);
  const { key } = await mintApiKey(deps, ids.account, 'bench', 'standard');
  const ingestToken = await rotateIngestToken(deps, ids.account, ids.ingestServer);
  if (!ingestToken) throw new Error('bench ingest server is missing or revoked');
  return { apiKey: key, ingestToken, sessionToken: await ownerSession(deps) };
}

/**
 * A session of the bench community's owner (role owner: servers.manage), through the service's
 * own functions; the sessions of earlier runs are revoked. The token is signed with the bench
 * process's JWT_SECRET, so the children must be given the same one.
 */
async function ownerSession(deps: Deps): Promise<string> {
  const existing = await findUserForLogin(deps.db, ownerName);
  if (existing && (existing.accountId !== ids.account || existing.role !== 'owner')) {
    throw new Error(`user ${ownerName} exists, but not as the owner of the bench community`);
  }
  const userId = existing?.id ?? (await createUser(deps, ids.account, ownerName, randomBytes(24).toString('base64url'), 'owner')).id;
  await revokeUserSessions(deps.db, userId, new Date(deps.clock.now()).toISOString());
  return (await startSession(deps, userId)).token;
}

/** Deletes every key under the bench prefix, then rebuilds the derived state from PostgreSQL. */
export async function prepareRedis(deps: Deps, say: (line: string) => void): Promise<void> {
  const prefix = deps.config.redisPrefix;
  if (!prefix) throw new Error('refusing to clean Redis without a key prefix');
  let deleted = 0;
  // On a Redis Cluster every master holds some of the keys, and one DEL may name keys of one slot
  // only: each master is scanned, and each key deleted on its own (the client pipelines them).
  for (const holder of deps.redis instanceof Cluster ? deps.redis.nodes('master') : [deps.redis]) {
    let cursor = '0';
    do {
      // SCAN patterns are not prefixed by ioredis; DEL arguments are, so strip the prefix first.
      const [next, keys] = await holder.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      const counts = await Promise.all(keys.map((k) => deps.redis.del(k.slice(prefix.length))));
      deleted += counts.reduce((sum, n) => sum + n, 0);
    } while (cursor !== '0');
  }
  const started = performance.now();
  const rebuilt = await rebuildDerivedState(deps);
  say(
    `redis: deleted ${deleted} keys under "${prefix}", rebuilt ${rebuilt.servers} servers / ${rebuilt.players.toLocaleString('en')} players in ${seconds(started)} s`,
  );
}
