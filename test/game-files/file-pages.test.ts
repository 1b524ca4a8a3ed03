// Game files of more than one page (5,000 entries a page): every entry once, in order, and each
// page's scan starts at its keyset position, also in the plan PostgreSQL keeps for any parameters
// (it uses it for a named query after five runs), where "no position, or after it" bounded nothing
// and every page scanned the account's entries from the first.
import test from 'ava';
import type pg from 'pg';
import { renderBanFile, renderPriorityFile } from '../../src/game-files/render.ts';
import { dayzIdOf } from '../../src/identities/id-forms.ts';
import { testEnv, t0 } from '../helpers/env.ts';
import type { TestEnv } from '../helpers/env.ts';
import { tenant } from '../helpers/seed.ts';

let env: TestEnv;
test.before(async () => {
  env = await testEnv();
});
test.after.always(async () => {
  await env?.close();
});

const entries = 12_001; // three pages, the last of one entry
const nowIso = new Date(t0).toISOString();
const steam = (g: number) => String(76561198500000000n + BigInt(g));

/** A connection planning every named query for any parameters, as it would after five runs. */
async function genericPlans(): Promise<pg.PoolClient> {
  const client = await env.deps.db.connect();
  await client.query('SET plan_cache_mode = force_generic_plan');
  return client;
}

/** Index entries read from `index` while `work` runs on `client` (its statistics flushed before and after). */
async function indexEntriesRead(client: pg.PoolClient, index: string, work: () => Promise<unknown>): Promise<number> {
  const read = async () => {
    await client.query('SELECT pg_stat_force_next_flush()');
    await client.query('SELECT 1'); // the flush happens as this statement ends
    const { rows } = await client.query<{ n: string }>(
      'SELECT idx_tup_read AS n FROM pg_stat_user_indexes WHERE indexrelname = $1 AND schemaname = current_schema()',
      [index],
    );
    return Number(rows[0]!.n);
  };
  const before = await read();
  await work();
  return (await read()) - before;
}

test.serial(
  'a priority file of three pages holds each queued player once, in id order, and each page reads from its position on',
  async (t) => {
    const a = await tenant(env.deps);
    const other = await tenant(env.deps);
    // Entries of this server (one scoped to it, one to every server, for a tenth of the players: the
    // file lists them once), entries of another server of the account, another account's entries.
    await env.deps.db.query(
      `INSERT INTO priority_queue (account_id, platform_id, server_ids, scope_key, source, created_at)
     SELECT $1::uuid, (76561198500000000 + g)::text, ARRAY[$2::uuid], $2::text, 'manual', $3::timestamptz FROM generate_series(1, $4::int) g
     UNION ALL SELECT $1::uuid, (76561198500000000 + g)::text, NULL, 'all', 'manual', $3::timestamptz FROM generate_series(1, $4::int, 10) g
     UNION ALL SELECT $1::uuid, (76561198600000000 + g)::text, ARRAY[gen_random_uuid()], 'elsewhere', 'manual', $3::timestamptz FROM generate_series(1, 3000) g
     UNION ALL SELECT $5::uuid, (76561198500000000 + g)::text, NULL, 'all', 'manual', $3::timestamptz FROM generate_series(1, 3000) g`,
      [a.accountId, a.serverId, nowIso, entries, other.accountId],
    );
    await env.deps.db.query('ANALYZE priority_queue');
    const client = await genericPlans();
    try {
      let file: Awaited<ReturnType<typeof renderPriorityFile>> | undefined;
      const read = await indexEntriesRead(client, 'priority_queue_player_scope_idx', async () => {
        file = await renderPriorityFile(client, a.accountId, a.serverId, nowIso);
      });
      const expected = Array.from({ length: entries }, (_, i) => `${steam(i + 1)};`).sort();
      t.is(file!.entries, entries);
      t.is(file!.content.toString('utf8'), expected.join('')); // the file is one line: "id;id;...;"
      // The account's entries from the first of this server's on, once: 13,201 of this server and
      // the 3,000 of its other server that sort after them, not 40,000 with pages that start over.
      t.true(read <= entries + entries / 10 + 3000 + 10, `${read} index entries read`);
    } finally {
      client.release();
    }
  },
);

test.serial('a ban file of three pages holds each ban in force once, oldest first, and each page reads from its position on', async (t) => {
  const a = await tenant(env.deps);
  await env.deps.db.query(
    `INSERT INTO bans (account_id, platform_id, source, banned_at)
     SELECT $1, (76561198700000000 + g)::text, 'manual', $2::timestamptz - make_interval(secs => $3::int - g) FROM generate_series(1, $3::int) g`,
    [a.accountId, nowIso, entries],
  );
  await env.deps.db.query('ANALYZE bans');
  const client = await genericPlans();
  try {
    let file: Awaited<ReturnType<typeof renderBanFile>> | undefined;
    const read = await indexEntriesRead(client, 'bans_in_force_idx', async () => {
      file = await renderBanFile(client, a.accountId, nowIso, '\n');
    });
    t.is(file!.entries, entries);
    const lines = file!.content.toString('utf8').trimEnd().split('\n');
    // A Steam64 ban is two lines: the id and its DayZ ID.
    const ids = Array.from({ length: entries }, (_, i) => String(76561198700000000n + BigInt(i + 1)));
    t.deepEqual(
      lines,
      ids.flatMap((id) => [id, dayzIdOf(id)]),
    );
    t.true(read <= entries + 10, `${read} index entries read`);
  } finally {
    client.release();
  }
});
