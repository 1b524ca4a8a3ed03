// The ingest-token hashes a process keeps: each at most AUTH_CACHE_MS old, those asked for within
// AUTH_CACHE_MS read again together, the rest left to expire; a read under way when a hash is
// dropped keeps nothing. The stored hash is changed behind the cache's back (as when another
// process's invalidation message is lost), so only a read of PostgreSQL can see it.
import test from 'ava';
import { ManualClock } from '../../src/clock.ts';
import { newSecret, sameHash, secretHash } from '../../src/accounts/secrets.ts';
import { IngestTokenHashes } from '../../src/ingest/ingest-token-hashes.ts';
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

const maxAgeMs = 5000;

/** A server with its token, a cache of its own on its own clock, and a way to change the stored hash unseen. */
async function world() {
  const a = await tenant(env.deps);
  const clock = new ManualClock(t0);
  const hashes = new IngestTokenHashes(clock, maxAgeMs);
  /** What the cache would answer for this token now (reading PostgreSQL when it must). */
  const accepts = async (token: string) =>
    sameHash(secretHash(token), hashes.get(a.serverId) ?? (await hashes.load(env.deps.db, a.serverId)));
  /** Stores a new token's hash unseen; returns the token. */
  const storeUnseen = async () => {
    const token = newSecret('svci_');
    await env.deps.db.query('UPDATE servers SET ingest_token_hash = $2 WHERE id = $1', [a.serverId, secretHash(token)]);
    return token;
  };
  return { a, clock, hashes, accepts, storeUnseen };
}

test('a hash is kept for AUTH_CACHE_MS from its read, then read again (4,999 ms in, 5,000 ms out)', async (t) => {
  const { a, clock, accepts, storeUnseen } = await world();
  t.true(await accepts(a.token));
  const changed = await storeUnseen();
  clock.advance(maxAgeMs - 1);
  t.true(await accepts(a.token), 'still the hash read at the start');
  clock.advance(1);
  t.false(await accepts(a.token));
  t.true(await accepts(changed));
});

test('a refresh reads again the hashes asked for within AUTH_CACHE_MS, so a server posting every 5 s is never read on its own', async (t) => {
  const { a, clock, hashes, accepts, storeUnseen } = await world();
  t.true(await accepts(a.token));
  const changed = await storeUnseen();
  clock.advance(maxAgeMs / 2);
  await hashes.refresh(env.deps.db);
  t.false(await accepts(a.token), 'the refresh read the stored hash');
  t.true(await accepts(changed));
  const again = await storeUnseen();
  // Every 2.5 s a refresh, every 5 s a batch: the hash the batch meets is never older than 5 s.
  for (let batch = 0; batch < 4; batch++) {
    clock.advance(maxAgeMs / 2);
    t.truthy(hashes.get(a.serverId), `batch ${batch} finds a hash read within AUTH_CACHE_MS`);
    await hashes.refresh(env.deps.db);
    clock.advance(maxAgeMs / 2);
    await hashes.refresh(env.deps.db);
  }
  t.true(await accepts(again));
});

test('a hash not asked for within AUTH_CACHE_MS is not read again: it expires AUTH_CACHE_MS after its last read', async (t) => {
  const { a, clock, hashes, accepts, storeUnseen } = await world();
  t.true(await accepts(a.token));
  clock.advance(4000);
  await hashes.refresh(env.deps.db); // asked for 4 s ago: read again, at t0 + 4 s
  const changed = await storeUnseen();
  clock.advance(1000);
  await hashes.refresh(env.deps.db); // asked for 5 s ago: left alone
  clock.advance(maxAgeMs - 1000 - 1);
  t.true(await accepts(a.token), 't0 + 8.999 s: the read of t0 + 4 s');
  clock.advance(1);
  t.false(await accepts(a.token), 't0 + 9 s: expired, read again');
  t.true(await accepts(changed));
});

test('a hash dropped while a read is under way is not brought back by that read', async (t) => {
  const { a, hashes, accepts } = await world();
  const loading = hashes.load(env.deps.db, a.serverId);
  hashes.drop(a.serverId);
  await loading;
  t.is(hashes.get(a.serverId), undefined, 'a load');
  t.true(await accepts(a.token));
  const refreshing = hashes.refresh(env.deps.db);
  hashes.drop(a.serverId);
  await refreshing;
  t.is(hashes.get(a.serverId), undefined, 'a refresh');
});

test('unknown and revoked servers are kept as an empty hash, and the oldest reads go first beyond the bound', async (t) => {
  const clock = new ManualClock(t0);
  const hashes = new IngestTokenHashes(clock, maxAgeMs, 2);
  const [a, b, c] = [await tenant(env.deps), await tenant(env.deps), await tenant(env.deps)];
  t.is((await hashes.load(env.deps.db, '00000000-0000-4000-8000-000000000000')).length, 0);
  await env.deps.db.query('UPDATE servers SET revoked_at = now() WHERE id = $1', [a.serverId]);
  t.is((await hashes.load(env.deps.db, a.serverId)).length, 0);
  await hashes.load(env.deps.db, b.serverId);
  await hashes.load(env.deps.db, c.serverId);
  t.is(hashes.get(a.serverId), undefined);
  t.true(sameHash(secretHash(b.token), hashes.get(b.serverId)!));
  t.true(sameHash(secretHash(c.token), hashes.get(c.serverId)!));
});
