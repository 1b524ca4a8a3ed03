// GET /api/players?q=: an id in any form finds the account's player exactly; anything else is a
// case-insensitive prefix of a name, current or earlier; limit and `more`; the account's live
// servers only; bad queries are 400s; the name search is an index range (EXPLAIN), never a scan;
// the field's parser as a property.
import test from 'ava';
import fc from 'fast-check';
import { battleyeGuidOf, classifyIdentifier, dayzIdOf, legacyOf } from '../../src/identities/id-forms.ts';
import { parseSearchTerm } from '../../src/players/search-query.ts';
import { namePageSql } from '../../src/players/search.repo.ts';
import { t0 } from '../helpers/env.ts';
import { api, call, envFor } from '../helpers/controller-http.ts';
import { assertError } from '../helpers/data-api.ts';
import { community, events, feed, freshSteam64 } from './helpers.ts';

const search = async (
  t: Parameters<typeof api>[0],
  env: Parameters<typeof api>[1],
  s: Parameters<typeof api>[2],
  q: string,
  extra = '',
) => {
  const res = await api(t, env, s, 'get', `/api/players?q=${encodeURIComponent(q)}${extra}`);
  t.is(res.status, 200, `${q}: ${JSON.stringify(res.body).slice(0, 200)}`);
  return res.body as {
    match: string;
    more: boolean;
    players: { ids: { platformId: string }; lastName: string; matchedName: string | null; servers: { id: string }[] }[];
  };
};

test('by name: any case, a prefix of the current or an earlier name, each player once, in name order; by id: exact, any form', async (t) => {
  const env = await envFor(t);
  const c = await community(env, 2);
  const [s1, s2] = c.servers as [(typeof c.servers)[0], (typeof c.servers)[0]];
  const now = env.clock.now();
  const [alpha, alfred, bravo, zed] = [freshSteam64(), freshSteam64(), freshSteam64(), freshSteam64()];
  await feed(t, env, s1, [
    events.presence('player.heartbeat', now - 9000, alpha, 'Alpha'),
    events.presence('player.heartbeat', now - 8000, alfred, 'alfred'),
    events.presence('player.heartbeat', now - 7000, bravo, 'Bravo'),
    events.presence('player.heartbeat', now - 6000, zed, 'ÄLPHA Ünicode'),
  ]);
  // On the second server too, and renamed there: found once, by either name.
  await feed(t, env, s2, [events.presence('player.heartbeat', now - 5000, alpha, 'Alpha')]);
  await feed(t, env, s2, [events.presence('player.heartbeat', now - 4000, alpha, 'Omega')]);

  const al = await search(t, env, c.viewer, 'AL');
  t.is(al.match, 'name');
  t.deepEqual(
    al.players.map((p) => [p.ids.platformId, p.matchedName, p.lastName]),
    [
      [alfred, 'alfred', 'alfred'],
      [alpha, 'Alpha', 'Omega'],
    ],
    'byte order of the lower-cased names: "alf" before "alp"',
  );
  t.deepEqual(al.players[1]!.servers.map((s) => s.id).sort(), [s1.id, s2.id].sort());
  t.false(al.more);
  t.deepEqual(
    (await search(t, env, c.viewer, 'omeg')).players.map((p) => p.ids.platformId),
    [alpha],
  );
  t.deepEqual(
    (await search(t, env, c.viewer, 'älp')).players.map((p) => p.ids.platformId),
    [zed],
    'letters beyond ASCII fold case too',
  );
  t.deepEqual((await search(t, env, c.viewer, 'lpha')).players, [], 'a prefix, not a part');
  t.deepEqual((await search(t, env, c.viewer, 'Alpha ')).players, [], 'trailing spaces are part of the name');
  t.deepEqual(
    (await search(t, env, c.viewer, '  alph')).players.map((p) => p.ids.platformId),
    [alpha],
    'leading spaces are not',
  );
  t.deepEqual((await search(t, env, c.viewer, '%')).players, [], 'no pattern characters');
  const one = await search(t, env, c.viewer, 'a', '&limit=1');
  t.is(one.players.length, 1);
  t.true(one.more);

  const serviceId = (await env.deps.db.query('SELECT service_id AS id FROM players WHERE platform_id = $1', [bravo])).rows[0].id as string;
  for (const q of [bravo, ` ${bravo} `, dayzIdOf(bravo), battleyeGuidOf(bravo), legacyOf(bravo), serviceId]) {
    const hit = await search(t, env, c.viewer, q);
    t.is(hit.match, 'id', q);
    t.deepEqual(
      hit.players.map((p) => [p.ids.platformId, p.lastName]),
      [[bravo, 'Bravo']],
      q,
    );
  }
  t.deepEqual((await search(t, env, c.viewer, freshSteam64())).players, [], 'an id the account never saw');

  // A revoked server's players are no longer the account's.
  t.is((await call(env, c.owner, 'delete', `/api/servers/${s1.id}`)).status, 204);
  t.deepEqual((await search(t, env, c.viewer, 'Bravo')).players, []);
  t.deepEqual(
    (await search(t, env, c.viewer, 'Omega')).players.map((p) => p.servers.map((s) => s.id)),
    [[s2.id]],
  );
});

test('bad queries are 400s; a session with servers.read is required', async (t) => {
  const env = await envFor(t);
  const c = await community(env, 1);
  for (const query of ['', '?q=', '?q=%20%20', `?q=${'x'.repeat(101)}`, '?q=a&limit=0', '?q=a&limit=101', '?q=a&limit=x']) {
    assertError(t, await api(t, env, c.viewer, 'get', `/api/players${query}`), 400, 'BAD_REQUEST', query);
  }
  assertError(t, await api(t, env, undefined, 'get', '/api/players?q=a'), 401, 'UNAUTHORIZED');
});

test('the name search is an index range of each server, never a scan (EXPLAIN, custom and generic plans)', async (t) => {
  const env = await envFor(t);
  const c = await community(env, 2);
  const serverIds = c.servers.map((s) => s.id);
  // 40,000 names on the two servers, of 26 first letters.
  await env.deps.db.query(
    `INSERT INTO player_names (server_id, platform_id, name, first_seen_at, last_seen_at)
     SELECT ($1::uuid[])[1 + g % 2], (76561198000000000 + g)::text, chr(65 + g % 26) || 'layer' || g, now(), now()
     FROM generate_series(1, 40000) AS g`,
    [serverIds],
  );
  await env.deps.db.query('ANALYZE player_names');
  const client = await env.deps.db.connect();
  try {
    const params = [c.owner.accountId, 'Ela', '', null, 21];
    const plan = async (sql: string, values: unknown[] = []) =>
      (await client.query<{ 'QUERY PLAN': string }>(sql, values)).rows.map((r) => r['QUERY PLAN']).join('\n');
    const custom = await plan(`EXPLAIN ${namePageSql}`, params);
    t.regex(custom, /Index Scan using player_names_search_idx/, custom);
    // An ordered index scan under the limit: a server's matches are not all read and sorted.
    t.notRegex(custom, /Seq Scan|Bitmap Heap Scan on player_names/, custom);
    await client.query(`PREPARE player_search(uuid, text, text, text, int) AS ${namePageSql}`);
    await client.query('SET plan_cache_mode = force_generic_plan');
    // EXECUTE takes no bind parameters: the account id (a UUID) as a literal.
    const generic = await plan(`EXPLAIN EXECUTE player_search('${c.owner.accountId}', 'ela', '', NULL, 21)`);
    t.regex(generic, /Index Scan using player_names_search_idx/, generic);
    t.notRegex(generic, /Seq Scan|Bitmap Heap Scan on player_names/, generic);
    const found = await client.query(namePageSql, params);
    t.is(found.rowCount, 21);
    t.true(found.rows.every((r: { key: string }) => r.key.startsWith('ela')));
  } finally {
    await client.query('DEALLOCATE ALL').catch(() => undefined);
    await client.query('RESET plan_cache_mode').catch(() => undefined);
    client.release();
  }
});

test('property: the search field is an id exactly when the trust lookup reads it as one; else a name prefix without leading spaces', (t) => {
  const ids = fc.oneof(
    fc.bigInt({ min: 76561197960265728n, max: 76561202255233023n }).map(String),
    fc.bigInt({ min: 76561197960265728n, max: 76561202255233023n }).map((n) => dayzIdOf(String(n))),
    fc.bigInt({ min: 76561197960265728n, max: 76561202255233023n }).map((n) => battleyeGuidOf(String(n))),
    fc.uuid(),
    fc.stringMatching(/^[0-9A-F]{40}$/),
  );
  const spaces = fc.stringMatching(/^[ \t]{0,3}$/);
  fc.assert(
    fc.property(spaces, ids, spaces, (before, id, after) => {
      const term = parseSearchTerm(`${before}${id}${after}`, t0);
      return term?.match === 'id';
    }),
  );
  fc.assert(
    fc.property(fc.string({ maxLength: 100 }), (q) => {
      const term = parseSearchTerm(q, t0);
      if (q.trim() === '') return term === undefined;
      if (classifyIdentifier(q.trim(), t0)) return term?.match === 'id';
      return term?.match === 'name' && term.prefix === q.trimStart() && term.prefix.length > 0;
    }),
  );
  t.pass();
});
