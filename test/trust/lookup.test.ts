// The public trust lookup: identifier kinds and errors, the TrustScore schema, the per-IP limit,
// the score cache and its invalidation, proofs, and the discovery document.
import test from 'ava';
import { SignJWT, createLocalJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import type { JSONWebKeySet } from 'jose';
import supertest from 'supertest';
import { createApp } from '../../src/app.ts';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { closeDeps, connectDeps, createDeps } from '../../src/deps.ts';
import { battleyeGuidOf, dayzIdOf } from '../../src/identities/id-forms.ts';
import { linkChatUser } from '../../src/trust/player.repo.ts';
import { invalidateTrustScores } from '../../src/trust/lookup.ts';
import { beginScore, cachedScore, storeScore } from '../../src/trust/score.store.ts';
import { trustScoreKeys } from '../../src/store/keys.ts';
import { invalidationChannel } from '../../src/store/invalidation.ts';
import { publish } from '../../src/store/publish.ts';
import { lookupProofAudience, lookupProofType } from '../../src/trust/signing.ts';
import { assertError, assertRateLimitHeaders } from '../helpers/data-api.ts';
import { envFor } from '../helpers/controller-http.ts';
import { setupOperator, userWithRole } from '../helpers/controller.ts';
import { ev, ingest, assertSchema, tenant, player } from '../helpers/seed.ts';
import { t0, testRedisEnv } from '../helpers/env.ts';
import { decide, rsaKey, submit } from '../helpers/trust.ts';
import { replicaCaughtUp } from '../helpers/replica.ts';

const steam64 = player(7).platformId;
const snowflake = '175928847299117063';

async function seenPlayer(env: Awaited<ReturnType<typeof envFor>>) {
  const t = await tenant(env.deps);
  const res = await ingest(env, t, [ev.presence('player.connect', t0 - 60_000, 7), ev.kill(t0 - 30_000, 7, 8)]);
  if (res.status !== 200) throw new Error(`ingest ${res.status}`);
  return t;
}

test('every identifier kind finds the player; the body matches the TrustScore schema', async (t) => {
  const env = await envFor(t);
  await seenPlayer(env);
  const { rows } = await env.deps.db.query<{ serviceId: string }>('SELECT service_id AS "serviceId" FROM players WHERE platform_id = $1', [
    steam64,
  ]);
  const serviceId = rows[0]!.serviceId;
  await linkChatUser(env.deps.db, snowflake, steam64, new Date(t0).toISOString());
  const offset = BigInt(steam64) - 76561197960265728n;
  const forms = [
    steam64,
    `STEAM_0:${offset % 2n}:${offset / 2n}`,
    `STEAM_1:${offset % 2n}:${offset / 2n}`,
    serviceId,
    serviceId.toUpperCase(),
    dayzIdOf(steam64),
    battleyeGuidOf(steam64),
    battleyeGuidOf(steam64).toUpperCase(),
    `discord:${snowflake}`,
    snowflake,
  ];
  for (const form of forms) {
    const res = await env.request.get(`/api/v1/trust/${encodeURIComponent(form)}`);
    t.is(res.status, 200, form);
    assertSchema(t, 'trust-score.json', res.body);
    t.is(res.body.platformId, steam64, form);
    t.is(res.body.serviceId, serviceId, form);
    t.false('proof' in res.body, 'no proof without a signing key');
    t.is(res.headers['x-service-trust-proof'], undefined);
  }
  const body = (await env.request.get(`/api/v1/trust/${steam64}`)).body;
  t.is(body.signals.kills, 1);
  t.is(body.signals.serversSeen, 1);
  t.is(body.computedAt, new Date(t0).toISOString());
  t.deepEqual(Object.keys(body.signals), [
    'bansActive',
    'submissionsPending',
    'overturns',
    'playMinutes',
    'serversSeen',
    'kills',
    'headshotRatio',
    'accuracy',
    'meanKillDistance',
    'communities',
  ]);
  t.deepEqual(body.signals.communities, [{ voice: null, playMinutes: 0, kills: 1, headshotRatio: 0, accuracy: null }]);
});

test('the legacy form is read both ways on a known pair', async (t) => {
  const env = await envFor(t);
  const operator = await setupOperator(env);
  const community = await userWithRole(env, 'moderator');
  const entry = await submit(env, community, { platformId: 'STEAM_0:0:47908' });
  t.is(entry.platformId, '76561197960361544');
  await decide(env, operator, String(entry.id), 'approve');
  const res = await env.request.get('/api/v1/trust/76561197960361544');
  t.is(res.status, 200);
  t.is(res.body.serviceId, null, 'a player known only from the pool has no service id yet');
  t.is(res.body.signals.bansActive, 1);
  t.is(res.body.band, 'high_risk');
});

test('malformed identifiers are 400s with a clear message; unknown players 404 NOT_FOUND', async (t) => {
  const env = await envFor(t);
  for (const bad of [
    'hello',
    '123',
    'STEAM_0:2:1',
    'discord:abc',
    'discord:18446744073709551616',
    '%C3%A9',
    'x'.repeat(101),
    '1'.repeat(21),
  ]) {
    const res = await env.request.get(`/api/v1/trust/${bad}`);
    assertError(t, res, 400, 'BAD_REQUEST', bad);
    t.regex(res.body.message, /identifier/);
  }
  // discord: forces the chat kind, digits in the Steam64 range too: unlinked, 404 rather than 400.
  for (const unknown of [
    '76561198999999999',
    'STEAM_0:1:999',
    '00000000-0000-4000-8000-000000000000',
    `discord:${snowflake}`,
    'discord:76561198000000007',
    dayzIdOf('76561198999999999'),
  ]) {
    assertError(t, await env.request.get(`/api/v1/trust/${encodeURIComponent(unknown)}`), 404, 'NOT_FOUND', unknown);
  }
});

test('per-IP rate limit with RateLimit headers; 429 carries retryAfter 60; IPv6 counts per /64', async (t) => {
  const env = await envFor(t, { RATE_TRUST_LOOKUP: '3', TRUSTED_PROXIES: '127.0.0.1,::1' });
  await seenPlayer(env);
  const from = (ip: string) => env.request.get(`/api/v1/trust/${steam64}`).set('X-Forwarded-For', ip);
  for (let i = 0; i < 3; i++) {
    const res = await from('203.0.113.5');
    t.is(res.status, 200);
    assertRateLimitHeaders(t, res, 3);
    t.is(res.headers['ratelimit-remaining'], String(2 - i));
  }
  const refused = await from('203.0.113.5');
  assertError(t, refused, 429, 'RATE_LIMITED');
  t.is(refused.body.retryAfter, 60);
  t.is(refused.headers['retry-after'], '60');
  assertRateLimitHeaders(t, refused, 3);
  t.is((await from('203.0.113.6')).status, 200, 'another address has its own budget');
  for (let i = 0; i < 3; i++) t.is((await from(`2001:db8:1:2::${i + 1}`)).status, 200);
  t.is((await from('2001:db8:1:2:ffff::9')).status, 429, 'the same /64');
  t.is((await from('2001:db8:1:3::1')).status, 200, 'another /64');
  env.clock.advance(120_000);
  t.is((await from('203.0.113.5')).status, 200, 'the window moved on');
});

test('the score is cached until its pool evidence changes; play reaches it once the score is a minute old, not at every batch', async (t) => {
  const env = await envFor(t);
  const server = await seenPlayer(env);
  const first = await env.request.get(`/api/v1/trust/${steam64}`);
  // A change behind the service's back is not seen: the answer came from the cache.
  await env.deps.db.query('UPDATE server_players SET play_seconds = 360000 WHERE platform_id = $1', [steam64]);
  env.clock.advance(1000);
  const cached = await env.request.get(`/api/v1/trust/${steam64}`);
  t.deepEqual(cached.body, first.body);
  await invalidateTrustScores(env.deps, [steam64]);
  const fresh = await env.request.get(`/api/v1/trust/${steam64}`);
  t.true(fresh.body.signals.playMinutes >= 6000);
  t.not(fresh.body.computedAt, first.body.computedAt);
  t.is((await ingest(env, server, [ev.kill(t0 - 1000, 7, 9)])).status, 200);
  t.deepEqual(
    (await env.request.get(`/api/v1/trust/${steam64}`)).body,
    fresh.body,
    'a batch keeps a score computed less than a minute ago',
  );
  // The score's age is Redis's time since it was stored: aged here instead of waited for.
  const age = (ms: number) => env.deps.redis.zadd(trustScoreKeys(steam64).held, Date.now() - ms, steam64);
  await age(58_000);
  t.is((await ingest(env, server, [ev.presence('player.heartbeat', t0 - 600, 7)])).status, 200);
  t.deepEqual((await env.request.get(`/api/v1/trust/${steam64}`)).body, fresh.body, '58 s old: kept');
  await age(60_500);
  t.is((await ingest(env, server, [ev.presence('player.heartbeat', t0 - 500, 7)])).status, 200);
  const afterIngest = await env.request.get(`/api/v1/trust/${steam64}`);
  t.is(afterIngest.body.signals.kills, fresh.body.signals.kills + 1, 'the ingested kill reached the score');
});

test('a score cached by another web process is dropped there as soon as its evidence changes', async (t) => {
  const env = await envFor(t);
  await seenPlayer(env);
  // Its requests do not wait for a read replica to replay the player: the test does.
  await replicaCaughtUp(env.deps);
  // A second process on the same stores, whose in-process cache would otherwise hold for a minute.
  const deps = createDeps({ ...env.deps.config, authCacheMs: 60_000 }, { clock: env.clock, log: env.deps.log });
  t.teardown(() => closeDeps(deps));
  await connectDeps(deps);
  const other = supertest(createApp(deps).callback());
  const bans = async () => (await other.get(`/api/v1/trust/${steam64}`)).body.signals.bansActive as number;
  t.is(await bans(), 0);
  t.is(await bans(), 0, 'answered again, now from its own cache');
  const operator = await setupOperator(env);
  const community = await userWithRole(env, 'moderator');
  const entry = await submit(env, community, { platformId: steam64 });
  await decide(env, operator, String(entry.id), 'approve');
  let seen = 0;
  for (let i = 0; i < 200 && seen === 0; i++) {
    seen = await bans();
    if (seen === 0) await new Promise((resolve) => setTimeout(resolve, 10));
  }
  t.is(seen, 1, 'the approval reached the other process through the invalidation broadcast');
});

test('invalidating a batch of players drops every one of their cached scores, whatever bucket their keys are in', async (t) => {
  const env = await envFor(t);
  const ids = Array.from({ length: 200 }, (_, i) => player(1000 + i).platformId);
  const score = { proof: '', body: Buffer.from('{}') };
  for (const id of ids) t.true(await storeScore(env.deps.redis, id, (await beginScore(env.deps.redis, id, t0)).token, score, t0, 60_000));
  const computing = await Promise.all(ids.map(async (id) => (await beginScore(env.deps.redis, id, t0)).token));
  await invalidateTrustScores(env.deps, [...ids, ...ids.slice(0, 10)]);
  for (const [i, id] of ids.entries()) {
    t.is(await cachedScore(env.deps.redis, id, t0), undefined, id);
    t.false(
      await storeScore(env.deps.redis, id, computing[i]!, score, t0, 60_000),
      `${id}: a score computed before the drop cannot be stored`,
    );
  }
  const after = (await beginScore(env.deps.redis, ids[0]!, t0)).token;
  t.true(await storeScore(env.deps.redis, ids[0]!, after, score, t0, 60_000), 'a computation begun after the drop is stored');
  t.false(await storeScore(env.deps.redis, ids[0]!, after, score, t0, 60_000), 'a token is used once');
});

test('a drop is broadcast to the other processes only when Redis held a score of one of its players', async (t) => {
  const env = await envFor(t);
  const listener = env.deps.redis.duplicate();
  await listener.connect();
  t.teardown(() => listener.disconnect());
  const heard: string[][] = [];
  listener.on('message', (_channel: string, message: string) => heard.push((JSON.parse(message) as { keys: string[] }).keys));
  await listener.subscribe(invalidationChannel(env.deps));
  const [cached, ...others] = Array.from({ length: 40 }, (_, i) => player(9000 + i).platformId);
  await invalidateTrustScores(env.deps, others);
  const score = { proof: '', body: Buffer.from('{}') };
  t.true(await storeScore(env.deps.redis, cached!, (await beginScore(env.deps.redis, cached!, t0)).token, score, t0, 60_000));
  await invalidateTrustScores(env.deps, [cached!, ...others]);
  await invalidateTrustScores(env.deps, [cached!, ...others]);
  // A message published after the one awaited would arrive by now too: the listener reads in order.
  await publish(env.deps, 'cache:invalidate', JSON.stringify({ cache: 'apiKey', key: 'marker' }));
  for (let i = 0; i < 200 && !heard.some((keys) => keys === undefined); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  const drops = heard.filter((keys) => keys !== undefined);
  t.is(drops.length, 1, 'one broadcast: the drops of players without stored scores sent none, nor the drop after the score went');
  t.deepEqual(drops[0], [cached], 'it names the player whose score was stored, and only that player');
  t.is(await cachedScore(env.deps.redis, cached!, t0), undefined);
});

test("a bucket's held set names its players with when their scores were stored, for a score's longest life", async (t) => {
  const env = await envFor(t);
  const bucketOf = (id: string) => trustScoreKeys(id).held;
  const candidates = Array.from({ length: 200 }, (_, i) => player(7000 + i).platformId);
  const [first, second] = candidates.filter((id) => bucketOf(id) === bucketOf(candidates[0]!));
  const score = { proof: '', body: Buffer.from('{}') };
  const held = bucketOf(first!);
  const before = Date.now();
  t.true(await storeScore(env.deps.redis, first!, (await beginScore(env.deps.redis, first!, t0)).token, score, t0, 60_000));
  t.true(await storeScore(env.deps.redis, second!, (await beginScore(env.deps.redis, second!, t0)).token, score, t0, 5_000));
  const stored = (await env.deps.redis.zmscore(held, first!, second!)).map(Number);
  t.true(
    stored.every((at) => at >= before - 1000 && at <= Date.now() + 1000),
    'both held, with the time their score was stored',
  );
  const ttl = await env.deps.redis.pttl(held);
  t.true(ttl > 9 * 60_000 && ttl <= 10 * 60_000, `the set lives a score's longest life (${ttl} ms)`);
  // An entry older than that leaves the set at the next store.
  await env.deps.redis.zadd(held, Date.now() - 10 * 60_000 - 1, first!);
  t.true(await storeScore(env.deps.redis, second!, (await beginScore(env.deps.redis, second!, t0)).token, score, t0, 5_000));
  t.is(await env.deps.redis.zscore(held, first!), null);
});

test('a bucket holding more players than one call carries is dropped whole, over several calls', async (t) => {
  const env = await envFor(t);
  // 600 players whose keys share one bucket: more than the 500 a drop call carries.
  const bucketOf = (id: string) => trustScoreKeys(id).computing;
  const candidates = Array.from({ length: 8000 }, (_, i) => player(5000 + i).platformId);
  const ids = candidates.filter((id) => bucketOf(id) === bucketOf(candidates[0]!)).slice(0, 600);
  t.is(ids.length, 600);
  const score = { proof: '', body: Buffer.from('{}') };
  await Promise.all(
    ids.map(async (id) => storeScore(env.deps.redis, id, (await beginScore(env.deps.redis, id, t0)).token, score, t0, 60_000)),
  );
  const computing = await Promise.all(ids.map(async (id) => (await beginScore(env.deps.redis, id, t0)).token));
  await invalidateTrustScores(env.deps, ids);
  const left = await Promise.all(ids.map((id) => cachedScore(env.deps.redis, id, t0)));
  t.deepEqual(
    ids.filter((_, i) => left[i] !== undefined),
    [],
    'no score is left',
  );
  const stored = await Promise.all(ids.map((id, i) => storeScore(env.deps.redis, id, computing[i]!, score, t0, 60_000)));
  t.deepEqual(
    ids.filter((_, i) => stored[i]),
    [],
    'no computation begun before the drop can store its score',
  );
});

test('a computation under way is not registered over: a second one waits for it; 10 s later one takes over from a process that died', async (t) => {
  const env = await envFor(t);
  const id = player(1).platformId;
  const score = { proof: '', body: Buffer.from('{}') };
  const first = await beginScore(env.deps.redis, id, t0);
  const second = await beginScore(env.deps.redis, id, t0 + 9999);
  t.true(first.own);
  t.deepEqual(second, { own: false, token: first.token }, 'under way: the second waits for the first');
  const later = await beginScore(env.deps.redis, id, t0 + 10_000);
  t.true(later.own, 'a registration 10 s old is taken as its process gone');
  t.false(await storeScore(env.deps.redis, id, first.token, score, t0, 60_000));
  t.true(await storeScore(env.deps.redis, id, later.token, score, t0, 60_000));
});

test('an approved entry past its expiry weighs less, without waiting for a sweep', async (t) => {
  const env = await envFor(t);
  const operator = await setupOperator(env);
  const community = await userWithRole(env, 'moderator');
  const entry = await submit(env, community, { platformId: steam64, expiresAt: new Date(t0 + 3600_000).toISOString() });
  await decide(env, operator, String(entry.id), 'approve');
  const active = await env.request.get(`/api/v1/trust/${steam64}`);
  t.is(active.body.signals.bansActive, 1);
  env.clock.advance(2 * 3600_000);
  const lapsed = await env.request.get(`/api/v1/trust/${steam64}`);
  t.is(lapsed.body.signals.bansActive, 0, 'the cached score did not outlive the expiry');
  t.true(lapsed.body.score > active.body.score, 'a ban served weighs half an active one');
  t.like(lapsed.body.signals.communities[0].voice, { status: 'expired', endedDaysAgo: 0.04 });
  t.true(
    lapsed.body.reasons.some((r: string) => /^Banned for .* by 1 community \(0 days\), ended 0 days ago: -\d+$/.test(r)),
    lapsed.body.reasons.join(' | '),
  );
  env.clock.advance(400 * 24 * 3600_000);
  await invalidateTrustScores(env.deps, [steam64]);
  const faded = await env.request.get(`/api/v1/trust/${steam64}`);
  t.true(faded.body.score > lapsed.body.score, 'an old expiry fades');
});

test('proofs verify with the discovery JWKS alone; tampered, foreign-key and session tokens fail', async (t) => {
  const env = await envFor(t, { TRUST_SIGNING_KEY: `${rsaKey(0)}\n${rsaKey(1)}` });
  await seenPlayer(env);
  const owner = await setupOperator(env);
  const res = await env.request.get(`/api/v1/trust/${steam64}`);
  assertSchema(t, 'trust-score.json', res.body);
  t.is(res.headers['x-service-trust-proof'], res.body.proof);
  const discovery = await env.request.get('/.well-known/service-trust.json');
  assertSchema(t, 'trust-discovery.json', discovery.body);
  t.is(discovery.body.signing.algorithm, 'RS256');
  t.is(discovery.body.signing.jwks.keys.length, 2, 'both keys of the rotation are published');
  const jwks = createLocalJWKSet(discovery.body.signing.jwks as JSONWebKeySet);
  const options = {
    algorithms: ['RS256'],
    issuer: 'gameservice-trust',
    audience: lookupProofAudience,
    typ: lookupProofType,
    currentDate: new Date(t0),
  };
  const { payload, protectedHeader } = await jwtVerify(res.body.proof, jwks, options);
  t.is(protectedHeader.kid, discovery.body.signing.jwks.keys[0].kid, 'the first configured key signs');
  t.like(payload, {
    platformId: steam64,
    serviceId: res.body.serviceId,
    score: res.body.score,
    band: res.body.band,
    confidence: res.body.confidence,
    computedAt: res.body.computedAt,
  });

  const [h, p, s] = (res.body.proof as string).split('.');
  const claims = JSON.parse(Buffer.from(p!, 'base64url').toString());
  const tampered = `${h}.${Buffer.from(JSON.stringify({ ...claims, score: 100 })).toString('base64url')}.${s}`;
  await t.throwsAsync(jwtVerify(tampered, jwks, options));
  const { createPrivateKey } = await import('node:crypto');
  const foreign = await new SignJWT(claims)
    .setProtectedHeader({ alg: 'RS256', kid: protectedHeader.kid, typ: lookupProofType })
    .sign(createPrivateKey(rsaKey(2)));
  await t.throwsAsync(jwtVerify(foreign, jwks, options));
  t.is(decodeProtectedHeader(owner.token).alg, 'HS256');
  await t.throwsAsync(jwtVerify(owner.token, jwks, options), undefined, 'a session JWT is no proof');
});

test('a withdrawn signing key signs nothing more: its cached proofs are not served by a service restarted without it', async (t) => {
  const env = await envFor(t, { TRUST_SIGNING_KEY: `${rsaKey(0)}\n${rsaKey(1)}` });
  await seenPlayer(env);
  const cached = (await env.request.get(`/api/v1/trust/${steam64}`)).body;
  t.truthy(cached.proof);
  // The same stores, restarted with other keys (another configuration: nothing cached in process).
  const restarted = async (keys: string[]) => {
    const deps = createDeps(
      loadConfig({
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        DATABASE_URL: env.deps.config.databaseUrl,
        DATABASE_SCHEMA: env.deps.config.databaseSchema,
        ...testRedisEnv(),
        REDIS_PREFIX: env.deps.config.redisPrefix,
        RATE_TRUST_LOOKUP: '1000',
        ...(keys.length > 0 ? { TRUST_SIGNING_KEY: keys.join('\n') } : {}),
      }),
      { clock: env.clock, log: env.deps.log },
    );
    t.teardown(() => closeDeps(deps));
    await connectDeps(deps);
    return (await supertest(createApp(deps).callback()).get(`/api/v1/trust/${steam64}`)).body;
  };
  t.is((await restarted([rsaKey(1), rsaKey(0)])).proof, cached.proof, 'a key still configured (a rotation): the cached proof is served');
  const rotatedOut = await restarted([rsaKey(1)]);
  t.truthy(rotatedOut.proof);
  t.not(rotatedOut.proof, cached.proof);
  t.not(decodeProtectedHeader(rotatedOut.proof).kid, decodeProtectedHeader(cached.proof).kid, 'signed anew by the key still configured');
  const unsigned = await restarted([]);
  t.false('proof' in unsigned, 'signing off: no proof of a withdrawn key from the cache');
});

test('without a signing key the discovery document has no signing section', async (t) => {
  const env = await envFor(t);
  const res = await env.request.get('/.well-known/service-trust.json');
  t.is(res.status, 200);
  assertSchema(t, 'trust-discovery.json', res.body);
  t.false('signing' in res.body);
  t.deepEqual(res.body.bands, {
    trusted: { min: 75, max: 100 },
    neutral: { min: 50, max: 74 },
    watch: { min: 25, max: 49 },
    high_risk: { min: 0, max: 24 },
  });
  t.deepEqual(res.body.reasonCategories, ['cheating', 'exploiting', 'griefing', 'toxicity', 'ban_evasion', 'other']);
  t.is(res.body.scoreSchema.title, 'TrustScore');
});

test('a bad signing key stops the start with a clear message', (t) => {
  const bad = (env: Record<string, string>) => t.throws(() => loadConfig(env), { instanceOf: ConfigError });
  t.regex(bad({ TRUST_SIGNING_KEY: 'not a key' }).message, /TRUST_SIGNING_KEY: no PEM block/);
  t.regex(
    bad({ TRUST_SIGNING_KEY: '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----' }).message,
    /TRUST_SIGNING_KEY: not a readable PEM private key/,
  );
  t.regex(bad({ TRUST_SIGNING_KEY_FILE: '/nonexistent/key.pem' }).message, /cannot read \/nonexistent\/key.pem/);
  t.deepEqual(
    loadConfig({ TRUST_SIGNING_KEY: rsaKey(0).replaceAll('\n', '\\n') }).trustSigningKeys,
    [rsaKey(0).trim()],
    'a one-line key with \\n is read',
  );
});
