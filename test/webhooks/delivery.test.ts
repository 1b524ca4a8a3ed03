// The delivery worker against local receivers (WEBHOOK_ALLOW_PRIVATE=1): a standard endpoint's
// requests verified by standardwebhooks' own Webhook.verify (the secret before a rotation signing
// too for 24 h); a receiver that fails then recovers loses nothing and gets the events in order;
// 24 h of failures pause the endpoint with the reason, a resume delivers what waited; a slow
// endpoint delays no other; the test event; the deliveries kept (the last 100); the outbox written
// in the ban's transaction (a refused ban queues nothing); Retry-After honoured (429 and 503); a
// receiver that dies mid-request and comes back loses nothing and gets the events in order; a
// receiver that never answers holds up no ingestion.
import test from 'ava';
import type { ExecutionContext } from 'ava';
import { Webhook } from 'standardwebhooks';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { closeDeps, connectDeps, createDeps } from '../../src/deps.ts';
import { registerServer } from '../../src/servers/server.ts';
import { deliverWebhooks, giveUpMs } from '../../src/webhooks/delivery.ts';
import { userWithRole } from '../helpers/controller.ts';
import type { Session } from '../helpers/controller.ts';
import { api, envFor } from '../helpers/controller-http.ts';
import type { TestEnv } from '../helpers/env.ts';
import { ev, ingest } from '../helpers/seed.ts';
import { receiver } from '../helpers/webhook-receiver.ts';

async function world(t: ExecutionContext) {
  // Sessions outlive the day of retries the clock moves through.
  const env = await envFor(t, { WEBHOOK_ALLOW_PRIVATE: '1', SESSION_TTL_MINUTES: String(60 * 24 * 30) });
  const a = await userWithRole(env, 'owner');
  return { env, a };
}

async function endpoint(t: ExecutionContext, env: TestEnv, s: Session, body: Record<string, unknown>) {
  const res = await api(t, env, s, 'post', '/api/webhooks', body);
  t.is(res.status, 201, JSON.stringify(res.body));
  return { id: res.body.webhook.id as string, secret: res.body.secret as string | undefined };
}

let n = 0;
const steam64 = () => String(76561198700000000n + BigInt(++n));

async function ban(t: ExecutionContext, env: TestEnv, s: Session, reason = 'cheating'): Promise<string> {
  const res = await api(t, env, s, 'post', '/api/bans', { platformId: steam64(), playerName: `player ${n}`, reason, durationMinutes: 60 });
  t.is(res.status, 201);
  return res.body.id as string;
}

const parsed = (body: string) => JSON.parse(body) as { type: string; timestamp: string; data: { ban: { id: string } } };

test('standard: each event signed per Standard Webhooks, verified by the library; the secret before a rotation signs for 24 h', async (t) => {
  const { env, a } = await world(t);
  env.clock.set(Date.now()); // Webhook.verify checks the timestamp against the real time
  const r = await receiver(t);
  const { id, secret } = await endpoint(t, env, a, { url: r.url, format: 'standard', events: ['ban.created', 'ban.lifted'] });
  const banId = await ban(t, env, a);
  await deliverWebhooks(env.deps);
  t.is(r.received.length, 1);
  const first = r.received[0]!;
  const payload = new Webhook(secret!).verify(first.body, first.headers as Record<string, string>) as {
    type: string;
    data: { ban: { id: string } };
  };
  t.is(payload.type, 'ban.created');
  t.is(payload.data.ban.id, banId);
  t.like(payload.data.ban, { reason: 'cheating', createdBy: { name: a.username }, liftedAt: null });
  t.is(parsed(first.body).timestamp, new Date(env.clock.now()).toISOString());

  const rotated = await api(t, env, a, 'post', `/api/webhooks/${id}/rotate-secret`);
  t.is((await api(t, env, a, 'delete', `/api/bans/${banId}`)).status, 200);
  await deliverWebhooks(env.deps);
  const second = r.received[1]!;
  t.is(String(second.headers['webhook-signature']).split(' ').length, 2);
  for (const key of [secret!, rotated.body.secret as string]) {
    const lifted = new Webhook(key).verify(second.body, second.headers as Record<string, string>) as {
      type: string;
      data: { ban: { liftedBy: { name: string } } };
    };
    t.is(lifted.type, 'ban.lifted');
    t.is(lifted.data.ban.liftedBy.name, a.username);
  }
  t.throws(() =>
    new Webhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`).verify(second.body, second.headers as Record<string, string>),
  );

  env.clock.advance(24 * 3600_000 + 1000);
  const realNow = Date.now();
  env.clock.set(Math.max(env.clock.now(), realNow));
  await ban(t, env, a);
  // Past the overlap only the new secret signs (the clock is a day ahead: checked without the library's time check).
  await deliverWebhooks(env.deps);
  t.is(String(r.received[2]!.headers['webhook-signature']).split(' ').length, 1);
});

test('a receiver that fails then recovers: nothing lost, order kept, each attempt recorded', async (t) => {
  const { env, a } = await world(t);
  const r = await receiver(t);
  r.answer({ status: 500, body: 'down' }, { status: 500, body: 'down' }, { status: 200 });
  const { id } = await endpoint(t, env, a, { url: r.url, format: 'standard', events: ['ban.created'] });
  const bans = [await ban(t, env, a), await ban(t, env, a), await ban(t, env, a)];
  await deliverWebhooks(env.deps);
  t.is(r.received.length, 1, 'one in flight: the head failed, the others wait behind it');
  await deliverWebhooks(env.deps);
  t.is(r.received.length, 1, 'not due before its retry');
  const state = await api(t, env, a, 'get', `/api/webhooks/${id}`);
  t.like(state.body, {
    waiting: 3,
    failingSince: new Date(env.clock.now()).toISOString(),
    nextAttemptAt: new Date(env.clock.now() + 10_000).toISOString(),
  });
  env.clock.advance(10_000);
  await deliverWebhooks(env.deps);
  t.is(r.received.length, 2);
  env.clock.advance(20_000);
  await deliverWebhooks(env.deps);
  t.is(r.received.length, 5);
  const ids = r.received.map((x) => parsed(x.body).data.ban.id);
  t.deepEqual(ids, [bans[0], bans[0], bans[0], bans[1], bans[2]]);
  t.is(new Set(r.received.slice(0, 3).map((x) => x.headers['webhook-id'])).size, 1, 'a retry is the same message id');
  const deliveries = (await api(t, env, a, 'get', `/api/webhooks/${id}/deliveries`)).body.deliveries as {
    attempt: number;
    outcome: string;
    statusCode: number;
    error: string | null;
  }[];
  t.deepEqual(deliveries.map((d) => [d.attempt, d.outcome, d.statusCode]).reverse(), [
    [1, 'failed', 500],
    [2, 'failed', 500],
    [3, 'delivered', 200],
    [1, 'delivered', 200],
    [1, 'delivered', 200],
  ]);
  t.is(deliveries.at(-1)!.error, 'HTTP 500: down');
  t.like((await api(t, env, a, 'get', `/api/webhooks/${id}`)).body, { waiting: 0, failingSince: null, nextAttemptAt: null });
});

test('deliveries survive a worker restart: another worker process takes up the retry where the first left it', async (t) => {
  const { env, a } = await world(t);
  const r = await receiver(t);
  r.answer({ status: 500 }, { status: 200 });
  const { id } = await endpoint(t, env, a, { url: r.url, format: 'standard', events: ['ban.created'] });
  await ban(t, env, a);
  await deliverWebhooks(env.deps);
  const restarted = createDeps(env.deps.config, { clock: env.clock, log: env.deps.log });
  await connectDeps(restarted);
  t.teardown(() => closeDeps(restarted));
  await deliverWebhooks(restarted);
  t.is(r.received.length, 1, 'the retry time is kept in PostgreSQL');
  env.clock.advance(10_000);
  await deliverWebhooks(restarted);
  t.is(r.received.length, 2);
  t.is(r.received[1]!.headers['webhook-id'], r.received[0]!.headers['webhook-id']);
  t.like((await api(t, env, a, 'get', `/api/webhooks/${id}`)).body, { waiting: 0, failingSince: null });
});

test('24 h of failures pause the endpoint with the reason; paused, it queues nothing new; resumed, it delivers what waited', async (t) => {
  const { env, a } = await world(t);
  const r = await receiver(t);
  r.answer({ status: 503, body: 'maintenance' });
  const { id } = await endpoint(t, env, a, { url: r.url, format: 'standard', events: ['ban.created'] });
  const first = await ban(t, env, a);
  const start = env.clock.now();
  let tries = 0;
  for (; tries < 100; tries++) {
    await deliverWebhooks(env.deps);
    const state = (await api(t, env, a, 'get', `/api/webhooks/${id}`)).body;
    if (state.paused) break;
    env.clock.set(Date.parse(state.nextAttemptAt));
  }
  t.is(env.clock.now() - start, giveUpMs, 'the last try falls at 24 h');
  t.true(tries > 20 && tries < 40, `${tries + 1} tries`);
  const paused = (await api(t, env, a, 'get', `/api/webhooks/${id}`)).body;
  t.like(paused, { paused: true, pausedBy: 'failures', waiting: 1, nextAttemptAt: null });
  t.regex(paused.pausedReason, /failed for 24 hours .*HTTP 503: maintenance/);
  const received = r.received.length;
  await ban(t, env, a);
  env.clock.advance(3600_000);
  await deliverWebhooks(env.deps);
  t.is(r.received.length, received, 'a paused endpoint is not tried');
  t.is((await api(t, env, a, 'get', `/api/webhooks/${id}`)).body.waiting, 1, 'and gets no new event');

  r.answer({ status: 204 });
  t.like((await api(t, env, a, 'patch', `/api/webhooks/${id}`, { paused: false })).body, {
    paused: false,
    pausedReason: null,
    pausedBy: null,
    failingSince: null,
  });
  await deliverWebhooks(env.deps);
  t.is(parsed(r.received.at(-1)!.body).data.ban.id, first);
  t.is((await api(t, env, a, 'get', `/api/webhooks/${id}`)).body.waiting, 0);
});

test('a slow endpoint delays no other; the test event goes behind the others', async (t) => {
  const { env, a } = await world(t);
  const fast = await receiver(t);
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  const slow = http.createServer((req, res) => {
    req.resume();
    void held.then(() => res.end());
  });
  await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    release();
    slow.close();
  });
  const slowUrl = `http://127.0.0.1:${(slow.address() as AddressInfo).port}/hook`;
  await endpoint(t, env, a, { url: slowUrl, format: 'standard', events: ['ban.created'] });
  const { id } = await endpoint(t, env, a, { url: fast.url, format: 'standard', events: ['ban.created'] });
  await ban(t, env, a);
  const slowRun = deliverWebhooks(env.deps);
  // The fast endpoint is served while the slow one's request hangs.
  for (let i = 0; i < 500 && fast.received.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
  t.is(fast.received.length, 1);
  const queued = await api(t, env, a, 'post', `/api/webhooks/${id}/test`);
  t.is(queued.status, 202);
  // Later runs, beside the first, which holds the slow endpoint's lock. The first run may still be
  // finishing with the fast endpoint (then it sends the test event itself, or a next run does).
  for (let i = 0; i < 500 && fast.received.length < 2; i++) {
    await deliverWebhooks(env.deps);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  t.is(fast.received.length, 2);
  t.like(JSON.parse(fast.received[1]!.body), { type: 'webhook.test', data: { endpointId: id } });
  t.is(fast.received[1]!.headers['webhook-id'], queued.body.eventId);
  release();
  await slowRun;
});

test('the outbox is written in the change’s transaction: a refused ban queues nothing; only subscribed endpoints get an event', async (t) => {
  const { env, a } = await world(t);
  const r = await receiver(t);
  const lifted = await endpoint(t, env, a, { url: r.url, format: 'standard', events: ['ban.lifted'] });
  const created = await endpoint(t, env, a, { url: r.url, format: 'standard', events: ['ban.created'] });
  const other = await userWithRole(env, 'owner');
  const elsewhere = await endpoint(t, env, other, { url: r.url, format: 'standard', events: ['ban.created'] });
  const res = await api(t, env, a, 'post', '/api/bans', { platformId: '76561198799999999', reason: 'x' });
  t.is(res.status, 201);
  t.is((await api(t, env, a, 'post', '/api/bans', { platformId: '76561198799999999', reason: 'again' })).status, 409);
  const waiting = async (s: Session, id: string) => (await api(t, env, s, 'get', `/api/webhooks/${id}`)).body.waiting as number;
  t.is(await waiting(a, created.id), 1, 'the refused ban (409) rolled back its event');
  t.is(await waiting(a, lifted.id), 0);
  t.is(await waiting(other, elsewhere.id), 0, 'another community gets nothing');
});

test('an endpoint keeps its last 100 deliveries', async (t) => {
  const { env, a } = await world(t);
  const r = await receiver(t);
  r.answer({ status: 429, body: '{"retry_after": 0}' });
  const { id } = await endpoint(t, env, a, { url: r.url, format: 'standard', events: ['ban.created'] });
  await ban(t, env, a);
  for (let i = 0; i < 105; i++) await deliverWebhooks(env.deps);
  t.is(r.received.length, 105);
  const deliveries = (await api(t, env, a, 'get', `/api/webhooks/${id}/deliveries`)).body.deliveries as {
    outcome: string;
    attempt: number;
  }[];
  t.is(deliveries.length, 100);
  t.true(
    deliveries.every((d) => d.outcome === 'rate-limited' && d.attempt === 1),
    'a 429 with retry_after counts as no failure',
  );
  const { rows } = await env.deps.db.query<{ n: number }>('SELECT count(*)::int AS n FROM webhook_deliveries');
  t.is(rows[0]!.n, 100);
});

test('a standard endpoint’s Retry-After is honoured: a 429 waits as asked (seconds) without failing; a 503 is tried again when its date says; an hour at most', async (t) => {
  const { env, a } = await world(t);
  const r = await receiver(t);
  const { id } = await endpoint(t, env, a, { url: r.url, format: 'standard', events: ['ban.created'] });
  const state = async () =>
    (await api(t, env, a, 'get', `/api/webhooks/${id}`)).body as { nextAttemptAt: string | null; failingSince: string | null };
  const at = (ms: number) => new Date(ms).toISOString();
  await ban(t, env, a);

  r.answer({ status: 429, headers: { 'retry-after': '120' } });
  await deliverWebhooks(env.deps);
  t.like(await state(), { nextAttemptAt: at(env.clock.now() + 120_000), failingSince: null });
  env.clock.advance(119_000);
  await deliverWebhooks(env.deps);
  t.is(r.received.length, 1, 'not before the time asked');

  env.clock.advance(1000);
  r.answer({ status: 503, body: 'restarting', headers: { 'retry-after': new Date(env.clock.now() + 45_000).toUTCString() } });
  await deliverWebhooks(env.deps);
  t.is(r.received.length, 2);
  t.like(await state(), { nextAttemptAt: at(env.clock.now() + 45_000), failingSince: at(env.clock.now()) });

  env.clock.advance(45_000);
  r.answer({ status: 429, headers: { 'retry-after': String(7 * 86_400) } });
  await deliverWebhooks(env.deps);
  t.is(r.received.length, 3);
  t.like(await state(), { nextAttemptAt: at(env.clock.now() + 3600_000) }, 'a week asked: an hour');

  env.clock.advance(3600_000);
  r.answer({ status: 204 });
  await deliverWebhooks(env.deps);
  t.is(r.received.length, 4);
  const deliveries = (await api(t, env, a, 'get', `/api/webhooks/${id}/deliveries`)).body.deliveries as {
    outcome: string;
    attempt: number;
    error: string | null;
  }[];
  t.deepEqual(deliveries.map((d) => [d.outcome, d.attempt, d.error]).reverse(), [
    ['rate-limited', 1, 'asked to wait 120 s'],
    ['failed', 1, 'HTTP 503: restarting (asked to wait 45 s)'],
    ['rate-limited', 2, 'asked to wait 3600 s'],
    ['delivered', 2, null],
  ]);
});

test('a receiver that dies mid-run, its request unanswered, and comes back later: nothing lost, order kept', async (t) => {
  const { env, a } = await world(t);
  const received: string[] = [];
  let dying = false;
  const sockets = new Set<Socket>();
  const serve = (port = 0) => {
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const id = parsed(Buffer.concat(chunks).toString('utf8')).data.ban.id;
        // The third request finds the process dying: read, never answered, its connection cut.
        if (dying && received.length === 2) {
          received.push(id);
          for (const s of sockets) s.destroy();
          server.close();
          return;
        }
        received.push(id);
        res.writeHead(204).end();
      });
    });
    server.on('connection', (s) => {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    });
    return new Promise<http.Server>((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
  };
  const first = await serve();
  const port = (first.address() as AddressInfo).port;
  const { id } = await endpoint(t, env, a, { url: `http://127.0.0.1:${port}/hook`, format: 'standard', events: ['ban.created'] });
  const bans = [];
  for (let i = 0; i < 5; i++) bans.push(await ban(t, env, a));
  dying = true;
  await deliverWebhooks(env.deps);
  t.deepEqual(received, bans.slice(0, 3), 'two answered, the third cut off mid-request, the rest held back');
  // While it is down: more events queue, and a try fails to connect.
  for (let i = 0; i < 2; i++) bans.push(await ban(t, env, a));
  env.clock.advance(10_000);
  await deliverWebhooks(env.deps);
  t.like((await api(t, env, a, 'get', `/api/webhooks/${id}`)).body, { waiting: 5 });
  const deliveries = (await api(t, env, a, 'get', `/api/webhooks/${id}/deliveries`)).body.deliveries as {
    outcome: string;
    error: string;
  }[];
  t.is(deliveries[0]!.outcome, 'failed');
  t.regex(deliveries[0]!.error, /ECONNREFUSED/);
  t.regex(deliveries[1]!.error, /socket hang up|ECONNRESET/);

  // Back on the same port.
  dying = false;
  const back = await serve(port);
  t.teardown(() => back.close());
  env.clock.advance(20_000);
  await deliverWebhooks(env.deps);
  t.deepEqual(received, [...bans.slice(0, 3), ...bans.slice(2)], 'the one cut off sent again, then the rest, in order');
  t.like((await api(t, env, a, 'get', `/api/webhooks/${id}`)).body, { waiting: 0, failingSince: null });
});

test('a receiver that never answers holds up no ingestion: batches with kills for it are answered while its request hangs', async (t) => {
  const { env, a } = await world(t);
  const { server, ingestToken } = await registerServer(env.deps, a.accountId, { name: 'one' });
  const one = { serverId: server.id, token: ingestToken };
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  let arrived = 0;
  const hung = http.createServer((req, res) => {
    arrived += 1;
    req.resume();
    void held.then(() => res.writeHead(204).end());
  });
  await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    release();
    hung.close();
  });
  const { id } = await endpoint(t, env, a, {
    url: `http://127.0.0.1:${(hung.address() as AddressInfo).port}/hook`,
    format: 'standard',
    events: ['kill'],
  });
  t.is((await ingest(env, one, [ev.kill(env.clock.now() - 5000, 1, 2)])).status, 200);
  const run = deliverWebhooks(env.deps);
  for (let i = 0; i < 500 && arrived === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
  t.is(arrived, 1, 'its request hangs');
  // Were ingestion waiting for the delivery, these would never be answered and the test would time out.
  for (let i = 0; i < 3; i++) t.is((await ingest(env, one, [ev.kill(env.clock.now() - 4000 + i, 2, 3)])).status, 200);
  t.is((await api(t, env, a, 'get', `/api/webhooks/${id}`)).body.waiting, 4, 'queued behind the one in flight');
  t.is(arrived, 1);
  release();
  await run;
});
