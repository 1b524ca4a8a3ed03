// POST /api/store/webhook (docs/api.md): Tebex's format and the service's own, signatures over the raw
// body, each event id once (also when delivered twice at the same moment), grants, extensions and
// revokes from the product table, refunds before purchases, audit entries with the store's event id.
import { createHash, createHmac, randomUUID } from 'node:crypto';
import { mkdtemp, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import test from 'ava';
import type { ExecutionContext } from 'ava';
import { drainSyncRequests } from '../../src/game-files/sync-job.ts';
import { markOperatorAccount } from '../../src/accounts/account.repo.ts';
import { registerServer } from '../../src/servers/server.ts';
import { revokeServerRow } from '../../src/servers/server.repo.ts';
import { entriesOfPlayer } from '../../src/queue/queue.repo.ts';
import type { StoreProduct } from '../../src/config/store-products.ts';
import { testEnv } from '../helpers/env.ts';
import type { TestEnv } from '../helpers/env.ts';
import { makeGameFilesDir } from '../helpers/game-files-dir.ts';
import { assertError } from '../helpers/data-api.ts';
import { assertSchema, tenant } from '../helpers/seed.ts';

const tebexSecret = 'tebex-webhook-secret-of-the-test';
const ownSecret = 'own-store-webhook-secret-at-least-32-chars';
const day = 86_400_000;

let env: TestEnv;
let filesDir: string;
let removeFilesDir: () => Promise<void>;
test.before(async () => {
  ({ dir: filesDir, remove: removeFilesDir } = await makeGameFilesDir('store-'));
  env = await testEnv({
    RATE_CONTROLLER: '100000',
    TEBEX_WEBHOOK_SECRET: tebexSecret,
    STORE_WEBHOOK_SECRET: ownSecret,
    GAME_FILES_DIR: filesDir,
  });
});
test.after.always(async () => {
  await env?.close();
  await removeFilesDir?.();
});

let n = 0;
const steam = () => String(76561198600000000n + BigInt(++n));
const iso = (ms: number) => new Date(ms).toISOString();
/** A product of this test's own: products are keyed by sku, so tests running at once never share one. */
const product = (p: StoreProduct, tebex = false) => {
  const sku = tebex ? `tebex:${900000 + ++n}` : `vip-${++n}`;
  env.deps.config.store.products[sku] = p;
  return sku;
};

const tebexSign = (raw: string, secret = tebexSecret) =>
  createHmac('sha256', secret).update(createHash('sha256').update(raw).digest('hex')).digest('hex');
const ownSign = (raw: string, t: number, secret = ownSecret) => createHmac('sha256', secret).update(`${t}.${raw}`).digest('hex');

function postTebex(raw: string, signature = tebexSign(raw)) {
  return env.request.post('/api/store/webhook').set('Content-Type', 'application/json').set('X-Signature', signature).send(raw);
}
function postOwn(raw: string, header = `t=${Math.floor(env.clock.now() / 1000)},v1=${ownSign(raw, Math.floor(env.clock.now() / 1000))}`) {
  return env.request.post('/api/store/webhook').set('Content-Type', 'application/json').set('X-Store-Signature', header).send(raw);
}

/** A Tebex payment webhook shaped as Tebex sends it (docs.tebex.io, Webhooks: payment.*). */
function tebexPayment(
  type: string,
  transactionId: string,
  items: { sku: string; steam64?: string; quantity?: number }[],
  customerSteam64?: string,
) {
  return JSON.stringify({
    id: randomUUID(),
    type,
    date: '2026-11-22T12:00:00+00:00',
    subject: {
      transaction_id: transactionId,
      status: { id: type === 'payment.completed' ? 1 : 2, description: type === 'payment.completed' ? 'Complete' : 'Refund' },
      payment_sequence: 'oneoff',
      created_at: '2026-11-22T12:00:00+00:00',
      price: { amount: 5, currency: 'EUR' },
      price_paid: { amount: 5, currency: 'EUR' },
      payment_method: { name: 'PayPal', refundable: true },
      fees: { tax: { amount: 0, currency: 'EUR' }, gateway: { amount: 0.3, currency: 'EUR' } },
      customer: {
        first_name: 'Ann',
        last_name: 'Buyer',
        email: 'ann@example.com',
        ip: '203.0.113.9',
        marketing_consent: false,
        country: 'DE',
        postal_code: '10115',
        username: customerSteam64 ? { id: customerSteam64, username: 'AnnOnSteam' } : null,
      },
      products: items.map((item) => ({
        id: Number(item.sku.slice('tebex:'.length)),
        name: 'VIP',
        quantity: item.quantity ?? 1,
        base_price: { amount: 5, currency: 'EUR' },
        paid_price: { amount: 5, currency: 'EUR' },
        variables: [],
        expires_at: null,
        custom: null,
        username: item.steam64 ? { id: item.steam64, username: 'Gift' } : null,
      })),
      coupons: [],
      gift_cards: [],
      recurring_payment_reference: null,
      decline_reason: null,
    },
  });
}

const ownEvent = (body: Record<string, unknown>) => JSON.stringify({ id: randomUUID(), ...body });

async function entries(accountId: string, platformId: string) {
  return entriesOfPlayer(env.deps.db, accountId, platformId);
}

function ok(t: ExecutionContext, res: { status: number; body: unknown }, expected: Record<string, unknown>, what = '') {
  t.is(res.status, 200, `${what} ${JSON.stringify(res.body)}`);
  assertSchema(t, 'store-webhook-result.json', res.body);
  t.like(res.body as Record<string, unknown>, expected, what);
}

test('Tebex validation.webhook is answered 200 with its id alone', async (t) => {
  const raw = JSON.stringify({
    id: '2c116b11-1110-91e0-b266-b792c8da5f11',
    type: 'validation.webhook',
    date: '2021-08-24T12:21:47+00:00',
    subject: {},
  });
  const res = await postTebex(raw);
  t.is(res.status, 200);
  t.deepEqual(res.body, { id: '2c116b11-1110-91e0-b266-b792c8da5f11' });
});

test('Tebex purchase: grants the product days to the product username (else the customer), audited with the event id; the priority file follows', async (t) => {
  const a = await tenant(env.deps);
  const dir = await mkdtemp(join(filesDir, 'server-'));
  const file = join(dir, 'priority.txt');
  await env.deps.db.query('UPDATE servers SET priority_file_path = $2 WHERE id = $1', [a.serverId, file]);
  const sku = product({ accountId: a.accountId, days: 30, servers: 'all' }, true);
  const [buyer, friend] = [steam(), steam()];
  const raw = tebexPayment('payment.completed', `tbx-${randomUUID()}`, [{ sku }, { sku, steam64: friend, quantity: 2 }], buyer);
  ok(t, await postTebex(raw), { outcome: 'processed', granted: 2, revoked: 0 });
  const now = env.clock.now();
  t.like((await entries(a.accountId, buyer))[0], {
    source: 'store',
    serverIds: null,
    expiresAt: iso(now + 30 * day),
    createdByName: 'Store (Tebex)',
  });
  t.like(
    (await entries(a.accountId, friend))[0],
    { expiresAt: iso(now + 60 * day) },
    'a gift goes to the product username; quantity 2 buys twice the days',
  );
  const eventId = JSON.parse(raw).id as string;
  const audit = await env.deps.db.query(
    "SELECT action, actor_type, details FROM audit_log WHERE account_id = $1 AND action LIKE 'queue.%' ORDER BY id",
    [a.accountId],
  );
  t.deepEqual(
    audit.rows.map((r) => [r.action, r.actor_type, r.details.storeEventId]),
    [
      ['queue.add', 'system', eventId],
      ['queue.add', 'system', eventId],
    ],
  );
  await drainSyncRequests(env.deps);
  t.is(
    await readFile(file, 'utf8'),
    [buyer, friend]
      .sort()
      .map((id) => `${id};`)
      .join(''),
  );
});

test('Tebex: a wrong secret, a re-serialised body, a missing or malformed signature are 401 and change nothing', async (t) => {
  const a = await tenant(env.deps);
  const sku = product({ accountId: a.accountId, days: 7, servers: 'all' }, true);
  const p = steam();
  const raw = tebexPayment('payment.completed', `tbx-${randomUUID()}`, [{ sku }], p);
  assertError(t, await postTebex(raw, tebexSign(raw, 'another-secret')), 401, 'UNAUTHORIZED', 'wrong secret');
  const reserialised = JSON.stringify(JSON.parse(raw), null, 2);
  assertError(t, await postTebex(reserialised, tebexSign(raw)), 401, 'UNAUTHORIZED', 're-serialised body');
  assertError(t, await postTebex(raw, 'zz'), 401, 'UNAUTHORIZED', 'not hex');
  assertError(
    t,
    await postTebex(raw, createHmac('sha256', tebexSecret).update(raw).digest('hex')),
    401,
    'UNAUTHORIZED',
    'HMAC of the body itself, not of its hash',
  );
  const unsigned = await env.request.post('/api/store/webhook').set('Content-Type', 'application/json').send(raw);
  assertError(t, unsigned, 401, 'UNAUTHORIZED', 'no signature');
  t.deepEqual(await entries(a.accountId, p), []);
  t.is((await env.deps.db.query('SELECT 1 FROM store_events WHERE event_id = $1', [JSON.parse(raw).id])).rowCount, 0);
  ok(t, await postTebex(raw), { outcome: 'processed', granted: 1 });
});

test('a replayed event id is a 200 repeat that grants nothing more; two deliveries at the same moment grant once', async (t) => {
  const a = await tenant(env.deps);
  const sku = product({ accountId: a.accountId, days: 10, servers: 'all' }, true);
  const p = steam();
  const raw = tebexPayment('payment.completed', `tbx-${randomUUID()}`, [{ sku }], p);
  ok(t, await postTebex(raw), { outcome: 'processed', granted: 1 });
  ok(t, await postTebex(raw), { outcome: 'repeat', granted: 0 });
  t.is((await entries(a.accountId, p))[0]!.expiresAt, iso(env.clock.now() + 10 * day));
  const q = steam();
  const twice = tebexPayment('payment.completed', `tbx-${randomUUID()}`, [{ sku }], q);
  const answers = await Promise.all([postTebex(twice), postTebex(twice), postTebex(twice)]);
  t.deepEqual(
    answers.map((r) => r.status),
    [200, 200, 200],
  );
  t.deepEqual(answers.map((r) => (r.body as { outcome: string }).outcome).sort(), ['processed', 'repeat', 'repeat']);
  t.is((await entries(a.accountId, q))[0]!.expiresAt, iso(env.clock.now() + 10 * day));
});

test.serial(
  'Tebex refund takes back exactly what its purchase gave: a new entry goes, an extension is undone, a lost dispute after a refund does nothing more',
  async (t) => {
    const a = await tenant(env.deps);
    const sku = product({ accountId: a.accountId, days: 30, servers: 'all' }, true);
    const [p, q] = [steam(), steam()];
    const first = `tbx-${randomUUID()}`;
    ok(t, await postTebex(tebexPayment('payment.completed', first, [{ sku }], p)), { granted: 1 });
    ok(t, await postTebex(tebexPayment('payment.refunded', first, [{ sku }], p)), { revoked: 1 });
    t.deepEqual(await entries(a.accountId, p), [], 'the entry it made is gone');
    ok(t, await postTebex(tebexPayment('payment.dispute.lost', first, [{ sku }], p)), { outcome: 'processed', revoked: 0 });

    const [bought, extended] = [`tbx-${randomUUID()}`, `tbx-${randomUUID()}`];
    ok(t, await postTebex(tebexPayment('payment.completed', bought, [{ sku }], q)), { granted: 1 });
    env.clock.advance(day);
    ok(t, await postTebex(tebexPayment('payment.completed', extended, [{ sku }], q)), { granted: 1 });
    const start = env.clock.now() - day;
    t.is((await entries(a.accountId, q))[0]!.expiresAt, iso(start + 60 * day), 'extended from the old expiry');
    ok(t, await postTebex(tebexPayment('payment.dispute.lost', extended, [{ sku }], q)), { revoked: 1 });
    t.is((await entries(a.accountId, q))[0]!.expiresAt, iso(start + 30 * day), 'the first purchase keeps its 30 days');
    const revoke = await env.deps.db.query("SELECT details FROM audit_log WHERE account_id = $1 AND action = 'queue.revoke' ORDER BY id", [
      a.accountId,
    ]);
    t.is(revoke.rows.length, 2);
    t.is(revoke.rows[1].details.purchase, extended);
  },
);

test('a refund that arrives before its purchase is kept: the late purchase grants nothing (both formats)', async (t) => {
  const a = await tenant(env.deps);
  const sku = product({ accountId: a.accountId, days: 30, servers: 'all' }, true);
  const p = steam();
  const transaction = `tbx-${randomUUID()}`;
  ok(t, await postTebex(tebexPayment('payment.refunded', transaction, [{ sku }], p)), { refundsAwaitingPurchase: 1, revoked: 0 });
  ok(t, await postTebex(tebexPayment('payment.completed', transaction, [{ sku }], p)), { outcome: 'processed', granted: 0 });
  t.deepEqual(await entries(a.accountId, p), []);

  const own = product({ accountId: a.accountId, days: 5, servers: 'all' });
  const purchaseId = randomUUID();
  ok(t, await postOwn(ownEvent({ type: 'purchase.refunded', platformId: p, sku: own, purchaseId })), { refundsAwaitingPurchase: 1 });
  ok(t, await postOwn(JSON.stringify({ id: purchaseId, type: 'purchase.completed', platformId: p, sku: own })), { granted: 0 });
  ok(
    t,
    await postOwn(ownEvent({ type: 'purchase.refunded', platformId: p, sku: own })),
    { refundsAwaitingPurchase: 1 },
    'naming no purchase, matching none',
  );
  ok(
    t,
    await postOwn(ownEvent({ type: 'purchase.completed', platformId: p, sku: own })),
    { granted: 0 },
    'the next purchase of that sku is the refunded one',
  );
  ok(t, await postOwn(ownEvent({ type: 'purchase.completed', platformId: p, sku: own })), { granted: 1 }, 'and only that one');
  const skipped = await env.deps.db.query("SELECT details FROM audit_log WHERE account_id = $1 AND action = 'store.purchase-refunded'", [
    a.accountId,
  ]);
  t.is(skipped.rowCount, 3);
});

test('a purchase and its refund delivered at the same moment: both answer 200 and the player ends with nothing, whichever commits first', async (t) => {
  const a = await tenant(env.deps);
  const sku = product({ accountId: a.accountId, days: 30, servers: 'all' }, true);
  const players = Array.from({ length: 8 }, () => steam());
  const answers = await Promise.all(
    players.flatMap((p) => {
      const transaction = `tbx-${randomUUID()}`;
      return [
        postTebex(tebexPayment('payment.completed', transaction, [{ sku }], p)),
        postTebex(tebexPayment('payment.refunded', transaction, [{ sku }], p)),
      ];
    }),
  );
  t.deepEqual(
    answers.map((r) => r.status),
    answers.map(() => 200),
    JSON.stringify(answers.filter((r) => r.status !== 200).map((r) => r.body)),
  );
  for (const p of players) t.deepEqual(await entries(a.accountId, p), [], p);
});

test('own format: purchase, then a refund by purchaseId or of the newest unrefunded purchase; permanent grants restore what they replaced', async (t) => {
  const a = await tenant(env.deps);
  const timed = product({ accountId: a.accountId, days: 3, servers: 'all' });
  const forever = product({ accountId: a.accountId, days: null, servers: 'all' });
  const p = steam();
  const first = randomUUID();
  ok(t, await postOwn(JSON.stringify({ id: first, type: 'purchase.completed', platformId: p, sku: timed })), { granted: 1 });
  ok(t, await postOwn(ownEvent({ type: 'purchase.completed', platformId: p, sku: timed })), { granted: 1 });
  const now = env.clock.now();
  t.is((await entries(a.accountId, p))[0]!.expiresAt, iso(now + 6 * day));
  ok(t, await postOwn(ownEvent({ type: 'purchase.refunded', platformId: p, sku: timed, purchaseId: first })), { revoked: 1 });
  t.is((await entries(a.accountId, p))[0]!.expiresAt, iso(now + 3 * day));
  ok(t, await postOwn(ownEvent({ type: 'purchase.completed', platformId: p, sku: forever })), { granted: 1 });
  t.is((await entries(a.accountId, p))[0]!.expiresAt, null, 'permanent');
  ok(t, await postOwn(ownEvent({ type: 'purchase.refunded', platformId: p, sku: forever })), { revoked: 1 });
  t.is((await entries(a.accountId, p))[0]!.expiresAt, iso(now + 3 * day), 'the timed expiry it replaced is back');
  ok(t, await postOwn(ownEvent({ type: 'purchase.refunded', platformId: p, sku: timed })), { revoked: 1 });
  t.deepEqual(await entries(a.accountId, p), [], 'the last refund leaves no time: the entry goes');
});

test('own format: several v1 (one good among bad ones) pass; a stale or future timestamp, a wrong secret or a bad header are 401', async (t) => {
  const a = await tenant(env.deps);
  const sku = product({ accountId: a.accountId, days: 1, servers: 'all' });
  const now = Math.floor(env.clock.now() / 1000);
  const body = () => ownEvent({ type: 'purchase.completed', platformId: steam(), sku });
  const raw = body();
  ok(t, await postOwn(raw, `t=${now},v1=${'0'.repeat(64)},v1=${ownSign(raw, now)},v1=${ownSign(raw, now, 'old-secret')}`), { granted: 1 });
  for (const [age, status] of [
    [299, 200],
    [301, 401],
    [-299, 200],
    [-301, 401],
  ] as const) {
    const r = body();
    const res = await postOwn(r, `t=${now - age},v1=${ownSign(r, now - age)}`);
    t.is(res.status, status, `timestamp ${age} s ${age > 0 ? 'old' : 'ahead'}: ${JSON.stringify(res.body)}`);
    if (status === 401) assertError(t, res, 401, 'UNAUTHORIZED');
  }
  const r = body();
  for (const header of [
    `t=${now},v1=${ownSign(r, now, 'wrong-secret')}`,
    `v1=${ownSign(r, now)}`,
    `t=${now}`,
    `t=abc,v1=${ownSign(r, now)}`,
    'garbage',
    `t=${now},t=${now},v1=${ownSign(r, now)}`,
  ]) {
    assertError(t, await postOwn(r, header), 401, 'UNAUTHORIZED', header.slice(0, 30));
  }
  assertError(
    t,
    await postOwn(r.replace('"purchase.completed"', '"purchase.refunded"'), `t=${now},v1=${ownSign(r, now)}`),
    401,
    'UNAUTHORIZED',
    'a body changed after signing',
  );
});

test('bodies it cannot read are 400 after a good signature: not JSON, another shape, an unknown sku, a product with no player', async (t) => {
  const a = await tenant(env.deps);
  const sku = product({ accountId: a.accountId, days: 1, servers: 'all' }, true);
  assertError(t, await postTebex('{"id":'), 400, 'BAD_REQUEST', 'not JSON');
  assertError(t, await postOwn('[1,2]'), 400, 'BAD_REQUEST', 'not an object');
  assertError(
    t,
    await postOwn(ownEvent({ type: 'purchase.completed', platformId: 'not-an-id', sku: 'vip' })),
    400,
    'BAD_REQUEST',
    'platform id',
  );
  assertError(
    t,
    await postOwn(ownEvent({ type: 'purchase.completed', platformId: steam(), sku: 'not-sold-here' })),
    400,
    'BAD_REQUEST',
    'unknown sku',
  );
  // Names every object has: not products (they reached Object.prototype and answered 500, so the store retried forever).
  for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
    assertError(
      t,
      await postOwn(ownEvent({ type: 'purchase.completed', platformId: steam(), sku: name })),
      400,
      'BAD_REQUEST',
      `sku ${name}`,
    );
  }
  assertError(t, await postTebex(tebexPayment('payment.completed', 'tbx-1', [{ sku }])), 400, 'BAD_REQUEST', 'no username anywhere');
  assertError(
    t,
    await postTebex(JSON.stringify({ id: 'x', type: 'payment.completed', subject: { transaction_id: 5, products: [] } })),
    400,
    'BAD_REQUEST',
    'subject shape',
  );
  const res = await postTebex(tebexPayment('payment.completed', `tbx-${randomUUID()}`, [{ sku: 'tebex:1' }], steam()));
  ok(t, res, { outcome: 'ignored', granted: 0 });
  ok(t, await postTebex(tebexPayment('payment.declined', `tbx-${randomUUID()}`, [{ sku }], steam())), { outcome: 'ignored' });
  const big = await postOwn(JSON.stringify({ pad: 'x'.repeat(300 * 1024) }));
  assertError(t, big, 413, 'PAYLOAD_TOO_LARGE');
});

test('scope and tenancy: a product for some servers queues there only, in its own account; a server it names that is gone is 422 and records nothing', async (t) => {
  const a = await tenant(env.deps);
  const other = await tenant(env.deps);
  const second = await registerServer(env.deps, a.accountId, { name: 'two' });
  const sku = product({ accountId: a.accountId, days: 2, servers: [second.server.id.toUpperCase()] });
  const p = steam();
  ok(t, await postOwn(ownEvent({ type: 'purchase.completed', platformId: p, sku })), { granted: 1 });
  t.deepEqual(
    (await entries(a.accountId, p)).map((e) => e.serverIds),
    [[second.server.id]],
  );
  t.deepEqual(await entries(other.accountId, p), []);
  const refundLater = ownEvent({ type: 'purchase.refunded', platformId: p, sku });
  await revokeServerRow(env.deps.db, a.accountId, second.server.id);
  ok(t, await postOwn(refundLater), { revoked: 1 }, "a refund after the product's server was revoked still takes the grant back");
  t.deepEqual(await entries(a.accountId, p), []);
  const stale = product({ accountId: a.accountId, days: 2, servers: [other.serverId] });
  const raw = ownEvent({ type: 'purchase.completed', platformId: p, sku: stale });
  assertError(t, await postOwn(raw), 422, 'UNPROCESSABLE');
  t.is(
    (await env.deps.db.query('SELECT 1 FROM store_events WHERE event_id = $1', [JSON.parse(raw).id])).rowCount,
    0,
    'the store may retry once it is fixed',
  );
});

test.serial('a product naming no account grants in the operator account; with none yet it is 422', async (t) => {
  const sku = product({ days: 1, servers: 'all' });
  assertError(t, await postOwn(ownEvent({ type: 'purchase.completed', platformId: steam(), sku })), 422, 'UNPROCESSABLE');
  const a = await tenant(env.deps);
  await markOperatorAccount(env.deps.db, a.accountId);
  const p = steam();
  ok(t, await postOwn(ownEvent({ type: 'purchase.completed', platformId: p, sku })), { granted: 1 });
  t.is((await entries(a.accountId, p)).length, 1);
});

test('TEBEX_SOURCE_ADDRESSES: a Tebex call from another address is 403; the own format is not bound to it', async (t) => {
  const restricted = await testEnv({
    TEBEX_WEBHOOK_SECRET: tebexSecret,
    STORE_WEBHOOK_SECRET: ownSecret,
    TEBEX_SOURCE_ADDRESSES: '18.209.80.3, 54.87.231.232',
  });
  t.teardown(() => restricted.close());
  const raw = JSON.stringify({ id: 'v-1', type: 'validation.webhook', subject: {} });
  const res = await restricted.request
    .post('/api/store/webhook')
    .set('Content-Type', 'application/json')
    .set('X-Signature', tebexSign(raw))
    .send(raw);
  assertError(t, res, 403, 'FORBIDDEN');
  const now = Math.floor(restricted.clock.now() / 1000);
  const own = JSON.stringify({ id: 'o-1', type: 'purchase.completed', platformId: steam(), sku: 'none' });
  const ownRes = await restricted.request
    .post('/api/store/webhook')
    .set('Content-Type', 'application/json')
    .set('X-Store-Signature', `t=${now},v1=${ownSign(own, now)}`)
    .send(own);
  assertError(t, ownRes, 400, 'BAD_REQUEST', 'past the address check, an unknown sku');
});

test('without a secret configured, calls in that format are 401', async (t) => {
  const bare = await testEnv({});
  t.teardown(() => bare.close());
  const raw = JSON.stringify({ id: 'v-2', type: 'validation.webhook', subject: {} });
  const res = await bare.request
    .post('/api/store/webhook')
    .set('Content-Type', 'application/json')
    .set('X-Signature', tebexSign(raw))
    .send(raw);
  assertError(t, res, 401, 'UNAUTHORIZED');
  t.regex(res.body.message, /TEBEX_WEBHOOK_SECRET/);
});
