import { createHash } from 'node:crypto';
import test from 'ava';
import type { ExecutionContext } from 'ava';
import { mintApiKey } from '../../src/accounts/api-key.ts';
import { insertBan, liftBan, updateBan } from '../../src/bans/ban.repo.ts';
import type { NewBan } from '../../src/bans/ban.repo.ts';
import { registerServer } from '../../src/servers/server.ts';
import { recordBanFileSync } from '../helpers/ban-files.ts';
import { testEnv } from '../helpers/env.ts';
import type { TestEnv } from '../helpers/env.ts';
import { assertSchema, dataGet, tenant } from '../helpers/seed.ts';
import type { Tenant } from '../helpers/seed.ts';
import { assertError } from '../helpers/data-api.ts';

// Tests that move the clock are serial (AVA runs them before the concurrent ones).
let env: TestEnv;
test.before(async () => {
  env = await testEnv();
});
test.after.always(async () => {
  await env?.close();
});

interface Ban {
  platformId: string;
  playerName: string | null;
  reason: string | null;
  source: string | null;
  permanent: boolean;
  bannedAt: string | null;
  expiresAt: string | null;
}

const iso = (ms: number) => new Date(ms).toISOString();
const hour = 3_600_000;

async function bans(t: ExecutionContext, a: Pick<Tenant, 'key' | 'serverId'>, query = ''): Promise<Ban[]> {
  const res = await dataGet(env, a, `/servers/${a.serverId}/bans${query}`);
  t.is(res.status, 200, `bans${query}: ${JSON.stringify(res.body).slice(0, 200)}`);
  assertSchema(t, 'ban-list.json', res.body);
  return (res.body as { bans: Ban[] }).bans;
}
// Bans are named by readable labels here; stored, each label is a valid platform id (a console id
// made from it), since the Ban schema admits only platform ids. Steam64s are kept as they are.
const labels = new Map<string, string>();
const pid = (label: string) => {
  if (/^[0-9]{17}$/.test(label)) return label;
  const id = createHash('sha1').update(label).digest('hex').toUpperCase();
  labels.set(id, label);
  return id;
};
const ids = (list: Ban[]) => list.map((b) => labels.get(b.platformId) ?? b.platformId);

/** Inserts a ban of the account, then syncs the server's ban file at syncedMs (with every ban then in force). */
async function syncedBan(accountId: string, serverId: string, ban: NewBan, syncedMs: number): Promise<string> {
  const id = await insertBan(env.deps.db, accountId, { ...ban, platformId: pid(ban.platformId) });
  await recordBanFileSync(env.deps.db, accountId, [serverId], syncedMs);
  return id;
}

test('active=true lists permanent and unexpired bans, active=false expired ones, omitted both; lifted never', async (t) => {
  const a = await tenant(env.deps);
  const now = env.clock.now();
  const synced = now - hour;
  await syncedBan(a.accountId, a.serverId, { platformId: 'permanent', source: 'manual', bannedAt: iso(now - 5 * hour) }, synced);
  await syncedBan(
    a.accountId,
    a.serverId,
    { platformId: 'unexpired', source: 'import', bannedAt: iso(now - 4 * hour), expiresAt: iso(now + hour) },
    synced,
  );
  await syncedBan(
    a.accountId,
    a.serverId,
    { platformId: 'expired', source: 'cloud', bannedAt: iso(now - 3 * hour), expiresAt: iso(now - hour / 2) },
    synced,
  );
  await syncedBan(
    a.accountId,
    a.serverId,
    { platformId: 'expires-now', source: 'manual', bannedAt: iso(now - 2 * hour), expiresAt: iso(now) },
    synced,
  );
  const liftedPermanent = await syncedBan(
    a.accountId,
    a.serverId,
    { platformId: 'lifted-permanent', source: 'manual', bannedAt: iso(now - hour) },
    synced,
  );
  const liftedExpired = await syncedBan(
    a.accountId,
    a.serverId,
    { platformId: 'lifted-expired', source: 'manual', bannedAt: iso(now - hour), expiresAt: iso(now - 1000) },
    synced,
  );
  const liftedUnexpired = await syncedBan(
    a.accountId,
    a.serverId,
    { platformId: 'lifted-unexpired', source: 'manual', bannedAt: iso(now - hour), expiresAt: iso(now + hour) },
    synced,
  );
  for (const id of [liftedPermanent, liftedExpired, liftedUnexpired])
    t.truthy(await liftBan(env.deps.db, a.accountId, id, iso(now - 1000)));

  t.deepEqual(ids(await bans(t, a, '?active=true')), ['unexpired', 'permanent']);
  t.deepEqual(ids(await bans(t, a, '?active=false')), ['expires-now', 'expired']);
  t.deepEqual(ids(await bans(t, a)), ['expires-now', 'expired', 'unexpired', 'permanent']);
});

test('permanent is true with expiresAt null; every field is rendered', async (t) => {
  const a = await tenant(env.deps);
  const now = env.clock.now();
  await syncedBan(
    a.accountId,
    a.serverId,
    { platformId: '76561198000000001', playerName: 'Cheater', reason: 'aimbot', source: 'cloud', bannedAt: iso(now - 2 * hour) },
    now - 60_000,
  );
  await syncedBan(
    a.accountId,
    a.serverId,
    { platformId: '76561198000000002', source: 'import', bannedAt: iso(now - 3 * hour + 123), expiresAt: iso(now + 24 * hour) },
    now - 60_000,
  );
  t.deepEqual(await bans(t, a), [
    {
      platformId: '76561198000000001',
      playerName: 'Cheater',
      reason: 'aimbot',
      source: 'cloud',
      permanent: true,
      bannedAt: iso(now - 2 * hour),
      expiresAt: null,
    },
    {
      platformId: '76561198000000002',
      playerName: null,
      reason: null,
      source: 'import',
      permanent: false,
      bannedAt: iso(now - 3 * hour + 123),
      expiresAt: iso(now + 24 * hour),
    },
  ]);
});

test("a server lists its file as of its own last sync; other accounts' bans and bans made since are not listed", async (t) => {
  const [a, b] = await Promise.all([tenant(env.deps), tenant(env.deps)]);
  const now = env.clock.now();
  const second = await registerServer(env.deps, a.accountId, { name: 'second' });
  await syncedBan(a.accountId, a.serverId, { platformId: 'here', source: 'manual' }, now - 2000);
  // Only the second server synced since this ban was made: the first one's file does not hold it yet.
  await syncedBan(a.accountId, second.server.id, { platformId: 'since', source: 'manual' }, now - 1000);
  await insertBan(env.deps.db, a.accountId, { platformId: pid('never-synced'), source: 'manual' });
  const bOwn = await syncedBan(b.accountId, b.serverId, { platformId: 'b-own', source: 'manual' }, now - 1000);
  // An entry naming another account's ban (the sync never writes one) lists nothing either.
  await env.deps.db.query(
    'INSERT INTO ban_file_entries (account_id, ban_id, added_at, removed_at, banned_at) VALUES ($1, $2, $3, $4, $3)',
    [a.accountId, bOwn, iso(now - 3000), iso(now + hour)],
  );
  t.deepEqual(ids(await bans(t, a)), ['here']);
  t.deepEqual(ids(await bans(t, { key: a.key, serverId: second.server.id })), ['since', 'here']);
  t.deepEqual(ids(await bans(t, b)), ['b-own']);
  // A server never synced lists nothing.
  const third = await registerServer(env.deps, a.accountId, { name: 'third' });
  t.deepEqual(ids(await bans(t, { key: a.key, serverId: third.server.id })), []);
});

test('order: newest in the file first, then bannedAt descending; a ban back in the file comes first', async (t) => {
  const a = await tenant(env.deps);
  const now = env.clock.now();
  // In the file from 40 s ago until it expires, 35 s ago; the sync 30 s ago takes it out.
  const back = await syncedBan(
    a.accountId,
    a.serverId,
    { platformId: 'back', source: 'manual', bannedAt: iso(now - 10 * hour), expiresAt: iso(now - 35_000) },
    now - 40_000,
  );
  t.deepEqual(ids(await bans(t, a)), ['back']);
  await syncedBan(a.accountId, a.serverId, { platformId: 'synced-oldest', source: 'manual', bannedAt: iso(now - hour) }, now - 30_000);
  await insertBan(env.deps.db, a.accountId, {
    platformId: pid('synced-mid-banned-early'),
    source: 'manual',
    bannedAt: iso(now - 5 * hour),
  });
  await syncedBan(
    a.accountId,
    a.serverId,
    { platformId: 'synced-mid-banned-late', source: 'manual', bannedAt: iso(now - 2 * hour) },
    now - 20_000,
  );
  await syncedBan(a.accountId, a.serverId, { platformId: 'synced-newest', source: 'manual', bannedAt: iso(now - 9 * hour) }, now - 10_000);
  const order = ['synced-newest', 'synced-mid-banned-late', 'synced-mid-banned-early', 'synced-oldest'];
  t.deepEqual(ids(await bans(t, a)), order);
  // Made permanent, it is in force again: the next sync writes it back, newest in the file.
  t.truthy(await updateBan(env.deps.db, a.accountId, back, { expiresAt: null }, iso(now - 5000)));
  t.deepEqual(ids(await bans(t, a)), order, 'not in the file until the next sync');
  await recordBanFileSync(env.deps.db, a.accountId, [a.serverId], now - 1000);
  t.deepEqual(ids(await bans(t, a)), ['back', ...order]);
});

test.serial('a ban leaves the active list when the service clock passes its expiry', async (t) => {
  const a = await tenant(env.deps);
  const now = env.clock.now();
  await syncedBan(
    a.accountId,
    a.serverId,
    { platformId: 'soon', source: 'manual', bannedAt: iso(now - hour), expiresAt: iso(now + 60_000) },
    now - 1000,
  );
  t.deepEqual(ids(await bans(t, a, '?active=true')), ['soon']);
  t.deepEqual(ids(await bans(t, a, '?active=false')), []);
  env.clock.set(now + 60_000);
  t.deepEqual(ids(await bans(t, a, '?active=true')), []);
  t.deepEqual(ids(await bans(t, a, '?active=false')), ['soon']);
  t.deepEqual(ids(await bans(t, a)), ['soon']);
});

test('400 BAD_REQUEST for active=maybe and other bad parameters', async (t) => {
  const a = await tenant(env.deps);
  for (const query of [
    'active=maybe',
    'active=TRUE',
    'active=1',
    'active=',
    'active=true&active=false',
    'limit=0',
    'limit=1001',
    'limit=abc',
    'offset=-1',
    'offset=1.5',
  ]) {
    assertError(t, await dataGet(env, a, `/servers/${a.serverId}/bans?${query}`), 400, 'BAD_REQUEST', query);
  }
  for (const query of ['active=true', 'active=false', 'limit=1', 'limit=1000', 'offset=0']) await bans(t, a, `?${query}`);
});

test('limit and offset page through the list in order', async (t) => {
  const a = await tenant(env.deps);
  const now = env.clock.now();
  for (let i = 0; i < 7; i++)
    await syncedBan(a.accountId, a.serverId, { platformId: `p${i}`, source: 'manual', bannedAt: iso(now - hour) }, now - 10_000 + i);
  const all = ids(await bans(t, a));
  t.deepEqual(all, ['p6', 'p5', 'p4', 'p3', 'p2', 'p1', 'p0']);
  const paged: string[] = [];
  for (let offset = 0; offset < 9; offset += 3) {
    const page = ids(await bans(t, a, `?limit=3&offset=${offset}`));
    t.true(page.length <= 3);
    paged.push(...page);
  }
  t.deepEqual(paged, all);
  t.deepEqual(ids(await bans(t, a, '?offset=7')), []);
  t.deepEqual(ids(await bans(t, a, '?active=true&limit=2&offset=1')), ['p5', 'p4']);
});

test('the default limit is 100 and limits are clamped to the tier cap: 100 standard, 500 partner', async (t) => {
  const a = await tenant(env.deps);
  const partner = { key: (await mintApiKey(env.deps, a.accountId, 'partner', 'partner')).key, serverId: a.serverId };
  const now = env.clock.now();
  const ids550 = Array.from({ length: 550 }, (_, i) => i);
  for (let i = 0; i < ids550.length; i += 50) {
    await Promise.all(
      ids550.slice(i, i + 50).map((n) =>
        insertBan(env.deps.db, a.accountId, {
          platformId: pid(`p${String(n).padStart(3, '0')}`),
          source: 'import',
          bannedAt: iso(now - hour + n),
        }),
      ),
    );
  }
  await recordBanFileSync(env.deps.db, a.accountId, [a.serverId], now - 1000);
  t.is((await bans(t, partner)).length, 100, 'the default limit');
  t.is((await bans(t, a, '?limit=1000')).length, 100);
  t.is((await bans(t, a, '?limit=101')).length, 100);
  const wide = await bans(t, partner, '?limit=1000');
  t.is(wide.length, 500);
  t.is(ids(wide)[0], 'p549');
  const tail = await bans(t, partner, '?limit=1000&offset=500');
  t.is(tail.length, 50);
  t.is(new Set(ids([...wide, ...tail])).size, 550);
});
