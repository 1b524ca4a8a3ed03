// The partner export: partner keys, authentication, rows and statuses, paging and limits, the page
// proof, rate per tier, and the reference client (mirror) verifying and resuming.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { createLocalJWKSet, jwtVerify } from 'jose';
import type { JSONWebKeySet } from 'jose';
import { createApp } from '../../src/app.ts';
import { rowsDigest } from '../../src/trust/export.ts';
import { emptyMirror, syncMirror } from '../../src/trust/mirror.ts';
import { mirrorToFile, readMirror } from '../../src/trust/mirror-file.ts';
import { join } from 'node:path';
import { exportProofType } from '../../src/trust/signing.ts';
import { assertError, assertRateLimitHeaders } from '../helpers/data-api.ts';
import { api, envFor } from '../helpers/controller-http.ts';
import type { TestEnv } from '../helpers/env.ts';
import { setupOperator, userWithRole } from '../helpers/controller.ts';
import type { Session } from '../helpers/controller.ts';
import { assertSchema } from '../helpers/seed.ts';
import { tempDirSync } from '../helpers/temp-dir.ts';
import { assertNoSubmitter, decide, feedSettled, rsaKey, submit } from '../helpers/trust.ts';
import { replicaCaughtUp } from '../helpers/replica.ts';

const signing = { TRUST_SIGNING_KEY: rsaKey(0) };
const pid = (n: number) => `7656119800${String(n).padStart(7, '0')}`;

async function partnerKey(t: Parameters<typeof api>[0], env: TestEnv, operator: Session, tier: 'basic' | 'premium' = 'basic') {
  const res = await api(t, env, operator, 'post', '/api/trust/partner-keys', { name: `partner ${tier}`, tier });
  t.is(res.status, 201);
  return res.body as { id: string; key: string; tier: string };
}

const exportGet = (env: TestEnv, key: string, query = '') =>
  env.request.get(`/api/v1/trust/export${query}`).set('Authorization', `Bearer ${key}`);

/** A pool of `n` active entries by one community (through the API) and one overturned one. */
async function pool(env: TestEnv, operator: Session, community: Session, n: number) {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const entry = await submit(env, community, { platformId: pid(i) });
    await decide(env, operator, String(entry.id), 'approve');
    ids.push(String(entry.id));
  }
  await feedSettled(env);
  return ids;
}

test('partner keys: svcp_ prefix shown once, only partners.manage, revocation takes effect at once', async (t) => {
  const env = await envFor(t);
  const operator = await setupOperator(env);
  const owner = await userWithRole(env, 'owner');
  const created = await partnerKey(t, env, operator, 'premium');
  assertSchema(t, 'partner-key-created.json', created);
  t.regex(created.key, /^svcp_/);
  const list = await api(t, env, operator, 'get', '/api/trust/partner-keys');
  t.deepEqual(
    list.body.keys.map((k: { id: string }) => k.id),
    [created.id],
  );
  t.false(JSON.stringify(list.body).includes(created.key), 'the list never shows the key');
  assertError(t, await api(t, env, owner, 'get', '/api/trust/partner-keys'), 403, 'FORBIDDEN');
  assertError(t, await api(t, env, owner, 'post', '/api/trust/partner-keys', { name: 'x' }), 403, 'FORBIDDEN');
  assertError(t, await api(t, env, operator, 'post', '/api/trust/partner-keys', { name: 'x', tier: 'gold' }), 400, 'BAD_REQUEST');
  t.is((await exportGet(env, created.key)).status, 200);
  t.is((await env.request.get('/api/v1/trust/export').set('x-service-partner-key', created.key)).status, 200, 'the second header');
  t.is((await api(t, env, operator, 'delete', `/api/trust/partner-keys/${created.id}`)).status, 204);
  assertError(t, await exportGet(env, created.key), 401, 'UNAUTHORIZED', 'revoked');
  assertError(t, await api(t, env, operator, 'delete', '/api/trust/partner-keys/00000000-0000-4000-8000-000000000000'), 404, 'NOT_FOUND');
  const audit = await env.deps.db.query<{ action: string; details: unknown }>(
    "SELECT action, details FROM audit_log WHERE action LIKE 'partner-key.%' ORDER BY id",
  );
  t.deepEqual(
    audit.rows.map((r) => r.action),
    ['partner-key.create', 'partner-key.revoke'],
  );
  t.false(JSON.stringify(audit.rows).includes(created.key));
});

test('export without a valid key is 401 UNAUTHORIZED', async (t) => {
  const env = await envFor(t);
  assertError(t, await env.request.get('/api/v1/trust/export'), 401, 'UNAUTHORIZED');
  assertError(t, await exportGet(env, 'svcp_nonsense'), 401, 'UNAUTHORIZED');
  assertError(t, await exportGet(env, 'svc_notapartnerkey'), 401, 'UNAUTHORIZED');
  const operator = await setupOperator(env);
  assertError(t, await exportGet(env, operator.token), 401, 'UNAUTHORIZED', 'a session JWT is no partner key');
});

test('rows, statuses, paging to null, limits clamped by tier, bad queries, no submitter anywhere', async (t) => {
  const env = await envFor(t);
  const operator = await setupOperator(env);
  const community = await userWithRole(env, 'moderator');
  const ids = await pool(env, operator, community, 5);
  await decide(env, operator, ids[0]!, 'overturn');
  await submit(env, community, { platformId: pid(99) }); // pending: never exported
  await feedSettled(env);
  const { key } = await partnerKey(t, env, operator);

  const all = await exportGet(env, key);
  t.is(all.status, 200);
  assertSchema(t, 'trust-export-page.json', all.body);
  assertRateLimitHeaders(t, all, 60);
  t.is(all.body.count, 5);
  t.is(all.body.nextCursor, null);
  t.truthy(all.body.syncedThrough);
  t.false('proof' in all.body, 'no proof without signing');
  t.deepEqual(all.body.rows.at(-1).id, ids[0], 'the overturn moved the entry to the end of the feed');
  t.is(all.body.rows.at(-1).status, 'overturned');
  assertNoSubmitter(
    t,
    JSON.stringify(all.body) + JSON.stringify(all.headers),
    [community.accountId, community.userId, community.username],
    'export',
  );

  const seen: string[] = [];
  let cursor: string | null = null;
  do {
    const res = await exportGet(env, key, `?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
    t.true(res.body.rows.length <= 2);
    seen.push(...res.body.rows.map((r: { id: string }) => r.id));
    t.is(res.body.syncedThrough === null, res.body.nextCursor !== null, 'syncedThrough only on the last page');
    cursor = res.body.nextCursor;
  } while (cursor !== null);
  t.deepEqual(
    seen,
    all.body.rows.map((r: { id: string }) => r.id),
  );

  const tombstones = await exportGet(env, key, '?status=overturned,expired');
  t.deepEqual(
    tombstones.body.rows.map((r: { id: string }) => r.id),
    [ids[0]],
  );
  const since = await exportGet(env, key, `?since=${encodeURIComponent(all.body.syncedThrough)}`);
  t.is(since.body.count, 0, 'nothing changed since');
  await decide(env, operator, ids[1]!, 'overturn');
  await feedSettled(env);
  const later = await exportGet(env, key, `?since=${Date.parse(all.body.syncedThrough)}`);
  t.true(
    later.body.rows.some((r: { id: string; status: string }) => r.id === ids[1] && r.status === 'overturned'),
    'epoch-ms since finds the change',
  );

  for (const bad of [
    '?limit=0',
    '?limit=1001',
    '?status=pending',
    '?status=active,',
    '?since=yesterday',
    '?since=2026-13-01T00:00:00Z',
    '?cursor=abc',
    `?cursor=${Buffer.from('1.2.3').toString('base64url')}`,
  ]) {
    assertError(t, await exportGet(env, key, bad), 400, 'BAD_REQUEST', bad);
  }
  // The basic tier's page cap is 500: a larger limit is clamped, not refused.
  await env.deps.db.query(
    `INSERT INTO trust_entries (platform_id, account_id, status, category, reason, created_at, updated_at)
    SELECT '76561198100' || lpad(g::text, 6, '0'), $1, 'active', 'other', 'bulk', now(), now() FROM generate_series(1, 600) g`,
    [community.accountId],
  );
  await feedSettled(env);
  const clamped = await exportGet(env, key, '?limit=1000');
  t.is(clamped.body.count, 500);
  t.not(clamped.body.nextCursor, null);
});

test('export pages per minute by tier', async (t) => {
  const env = await envFor(t, { RATE_EXPORT_BASIC: '2', RATE_EXPORT_PREMIUM: '3' });
  const operator = await setupOperator(env);
  const basic = await partnerKey(t, env, operator, 'basic');
  const premium = await partnerKey(t, env, operator, 'premium');
  for (let i = 0; i < 2; i++) t.is((await exportGet(env, basic.key)).status, 200);
  const refused = await exportGet(env, basic.key);
  assertError(t, refused, 429, 'RATE_LIMITED');
  t.is(refused.body.retryAfter, 60);
  for (let i = 0; i < 3; i++) t.is((await exportGet(env, premium.key)).status, 200, 'premium has its own, larger budget');
  t.is((await exportGet(env, premium.key)).status, 429);
});

test('page proofs verify with the discovery JWKS, bound to the partner and the page', async (t) => {
  const env = await envFor(t, signing);
  const operator = await setupOperator(env);
  const community = await userWithRole(env, 'moderator');
  await pool(env, operator, community, 3);
  const partner = await partnerKey(t, env, operator);
  const other = await partnerKey(t, env, operator);
  const jwks = createLocalJWKSet((await env.request.get('/.well-known/service-trust.json')).body.signing.jwks as JSONWebKeySet);
  const first = await exportGet(env, partner.key, '?limit=2');
  const verify = (proof: string, audience: string) =>
    jwtVerify(proof, jwks, {
      algorithms: ['RS256'],
      issuer: 'gameservice-trust',
      audience,
      typ: exportProofType,
      currentDate: new Date(env.clock.now()),
    });
  const { payload } = await verify(first.body.proof, partner.id);
  t.like(payload, {
    digest: rowsDigest(first.body.rows),
    count: 2,
    cursor: null,
    nextCursor: first.body.nextCursor,
    since: null,
    syncedThrough: null,
    statuses: ['active', 'overturned', 'expired'],
  });
  t.is(typeof payload.iat, 'number');
  await t.throwsAsync(verify(first.body.proof, other.id), undefined, 'another partner cannot present it');
  const second = await exportGet(env, partner.key, `?limit=2&cursor=${first.body.nextCursor}`);
  t.not(rowsDigest(second.body.rows), payload.digest, "page two's rows do not match page one's proof");
  const lookupProof = (await env.request.get(`/api/v1/trust/${pid(0)}`)).body.proof;
  await t.throwsAsync(verify(lookupProof, partner.id), undefined, 'a lookup proof is no page proof');
});

test('the reference client mirrors, refuses a tampered page, and resumes', async (t) => {
  const env = await envFor(t, signing);
  const operator = await setupOperator(env);
  const community = await userWithRole(env, 'moderator');
  const ids = await pool(env, operator, community, 4);
  const partner = await partnerKey(t, env, operator);
  // The mirror calls a server of its own, whose requests do not wait for a read replica: the test does.
  const server = createServer(createApp(env.deps).callback()).listen(0, '127.0.0.1');
  t.teardown(() => server.close());
  await new Promise((resolve) => server.once('listening', resolve));
  await replicaCaughtUp(env.deps);
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const options = { url, key: partner.key, pageSize: 3, now: () => env.clock.now() };
  const mirror = emptyMirror(url);
  t.deepEqual(await syncMirror(mirror, options), { pages: 2, rows: 4 });
  t.deepEqual(Object.keys(mirror.bans).sort(), [...ids].sort());
  t.is(mirror.keyId, partner.id);
  await decide(env, operator, ids[2]!, 'overturn');
  await feedSettled(env);
  await replicaCaughtUp(env.deps);
  const resumed = await syncMirror(mirror, options);
  t.is(resumed.rows, 1, 'the resume read only the change');
  t.false(ids[2]! in mirror.bans, 'the tombstone lifted the ban');

  const tampering: typeof fetch = async (input, init) => {
    const res = await fetch(input, init);
    if (!String(input).includes('/export')) return res;
    const body = (await res.json()) as { rows: { reason: string }[] };
    for (const row of body.rows) row.reason = 'edited';
    return new Response(JSON.stringify(body), { status: res.status });
  };
  await t.throwsAsync(syncMirror(emptyMirror(url), { ...options, fetch: tampering }), { message: /rows do not match the proof/ });
  // A relay that moves the resume point: forward in the answer (the mirror's next run would skip
  // rows), or in the request (this run would).
  const relay =
    (change: (url: URL, body: { syncedThrough: string | null }) => void): typeof fetch =>
    async (input, init) => {
      const url = new URL(String(input));
      if (!url.pathname.endsWith('/export')) return fetch(input, init);
      const body = { syncedThrough: null };
      change(url, body);
      const res = await fetch(url, init);
      const answered = (await res.json()) as { syncedThrough: string | null };
      if (answered.syncedThrough !== null && body.syncedThrough !== null) answered.syncedThrough = body.syncedThrough;
      return new Response(JSON.stringify(answered), { status: res.status });
    };
  const later = new Date(env.clock.now() + 3600_000).toISOString();
  await t.throwsAsync(syncMirror(emptyMirror(url), { ...options, fetch: relay((_u, body) => (body.syncedThrough = later)) }), {
    message: /syncedThrough differs from the proof/,
  });
  const resumeFrom = { ...emptyMirror(url), syncedThrough: mirror.syncedThrough };
  await t.throwsAsync(syncMirror(resumeFrom, { ...options, fetch: relay((u) => u.searchParams.set('since', later)) }), {
    message: /since differs from the proof/,
  });
  await t.throwsAsync(syncMirror(emptyMirror(url), { ...options, keyId: '00000000-0000-4000-8000-000000000000' }), {
    message: /does not verify/,
  });

  // The CLI's file round: a first run writes the mirror, a second resumes from it.
  const file = join(tempDirSync(t, 'mirror-'), 'mirror.json');
  t.like(await mirrorToFile(file, options), { rows: 4, bans: 3 });
  await decide(env, operator, ids[3]!, 'overturn');
  await feedSettled(env);
  await replicaCaughtUp(env.deps);
  t.like(await mirrorToFile(file, options), { rows: 1, bans: 2 });
  t.deepEqual(Object.keys((await readMirror(file, url)).bans).sort(), [ids[0]!, ids[1]!].sort());
  await t.throwsAsync(mirrorToFile(file, { ...options, url: 'http://127.0.0.1:1' }), { message: /mirrors http/ });
});

test('a cursor carries where its page was read from; a cursor without it (as handed out before) still pages; a malformed one is a 400', async (t) => {
  const env = await envFor(t);
  const operator = await setupOperator(env);
  const community = await userWithRole(env, 'moderator');
  const ids = await pool(env, operator, community, 4);
  const partner = await partnerKey(t, env, operator);
  const first = await exportGet(env, partner.key, '?limit=2');
  t.is(first.status, 200);
  const [xid, id, viewLsn, ...rest] = Buffer.from(first.body.nextCursor as string, 'base64url')
    .toString('latin1')
    .split('.');
  t.deepEqual(rest, []);
  t.is(id, ids[1]);
  t.regex(viewLsn!, /^[0-9A-F]+\/[0-9A-F]+$/);
  const next = await exportGet(env, partner.key, `?limit=2&cursor=${first.body.nextCursor as string}`);
  const older = await exportGet(env, partner.key, `?limit=2&cursor=${Buffer.from(`${xid}.${id}`).toString('base64url')}`);
  t.is(older.status, 200);
  t.deepEqual(
    older.body.rows.map((r: { id: string }) => r.id),
    ids.slice(2),
  );
  t.deepEqual(older.body.rows, next.body.rows);
  const malformed = await exportGet(env, partner.key, `?cursor=${Buffer.from(`${xid}.${id}.not-a-position`).toString('base64url')}`);
  assertError(t, malformed, 400, 'BAD_REQUEST');
});
