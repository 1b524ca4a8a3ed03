// Safe destinations with WEBHOOK_ALLOW_PRIVATE off: every refused form (loopback, private ranges,
// link-local, CGNAT, IPv6 ULA and link-local, IPv4-mapped IPv6, a name resolving to 127.0.0.1, plain
// http, credentials) is a 400 with the reason at creation, and refused again at delivery (a URL
// saved while allowed, or a name whose address changed: checked at connect time by the lookup the
// socket connects through). No redirect is followed, at most 64 kB of an answer is read, and a
// request that gets no answer ends at its time limit. No request of these tests leaves 127.0.0.1.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import type { ExecutionContext } from 'ava';
import { deliverWebhooks } from '../../src/webhooks/delivery.ts';
import { postJson, responseLimitBytes } from '../../src/webhooks/transport.ts';
import type { Resolver } from '../../src/webhooks/destination.ts';
import { userWithRole } from '../helpers/controller.ts';
import { api, envFor } from '../helpers/controller-http.ts';
import { receiver } from '../helpers/webhook-receiver.ts';

const refusedUrls = [
  'https://127.0.0.1/hook',
  'https://127.8.9.10:8443/hook',
  'https://10.1.2.3/hook',
  'https://172.16.0.1/hook',
  'https://172.31.255.254/hook',
  'https://192.168.1.1/hook',
  'https://169.254.169.254/latest/meta-data',
  'https://100.64.0.1/hook',
  'https://0.0.0.0/hook',
  'https://224.0.0.1/hook',
  'https://0x7f.0.0.1/hook',
  'https://[::1]/hook',
  'https://[fc00::1]/hook',
  'https://[fd12:3456::1]/hook',
  'https://[fe80::1]/hook',
  'https://[::ffff:127.0.0.1]/hook',
  'https://[::ffff:10.0.0.1]/hook',
  'https://[::ffff:192.168.0.1]/hook',
  'https://localhost/hook',
  'http://93.184.216.34/hook',
  'https://user:secret@93.184.216.34/hook',
  'not a url',
];

test('refused destinations are a 400 with the reason at creation and at change; a public https address is saved', async (t) => {
  const env = await envFor(t);
  const a = await userWithRole(env, 'owner');
  for (const url of refusedUrls) {
    const res = await api(t, env, a, 'post', '/api/webhooks', { url, format: 'discord', events: ['kill'] });
    t.is(res.status, 400, url);
    t.regex(res.body.message, /url/, url);
  }
  const localhost = await api(t, env, a, 'post', '/api/webhooks', { url: 'https://localhost/hook', format: 'discord', events: ['kill'] });
  t.regex(localhost.body.message, /localhost resolves to a refused address: 127\.0\.0\.1 is a loopback address/);
  const mapped = await api(t, env, a, 'post', '/api/webhooks', { url: 'https://[::ffff:10.0.0.1]/', format: 'discord', events: ['kill'] });
  t.regex(mapped.body.message, /10\.0\.0\.1 is a private address/);
  // Saved only: nothing is sent in this test.
  const saved = await api(t, env, a, 'post', '/api/webhooks', { url: 'https://93.184.216.34/hook', format: 'discord', events: ['kill'] });
  t.is(saved.status, 201);
  const changed = await api(t, env, a, 'patch', `/api/webhooks/${saved.body.webhook.id}`, { url: 'https://192.168.0.10/hook' });
  t.is(changed.status, 400);
  t.is((await api(t, env, a, 'get', `/api/webhooks/${saved.body.webhook.id}`)).body.url, 'https://93.184.216.34/hook');
});

test('a URL saved while private addresses were allowed is refused at delivery, and its receiver gets nothing', async (t) => {
  const env = await envFor(t, { WEBHOOK_ALLOW_PRIVATE: '1' });
  const a = await userWithRole(env, 'owner');
  const r = await receiver(t);
  const created = await api(t, env, a, 'post', '/api/webhooks', { url: r.url, format: 'standard', events: ['ban.created'] });
  await api(t, env, a, 'post', '/api/bans', { platformId: '76561198711111111' });
  env.deps.config.webhooks.allowPrivate = false;
  await deliverWebhooks(env.deps);
  t.is(r.received.length, 0);
  const [attempt] = (await api(t, env, a, 'get', `/api/webhooks/${created.body.webhook.id}/deliveries`)).body.deliveries;
  t.like(attempt, { outcome: 'failed', statusCode: null, error: 'url must be https' });
});

const rules = { allowPrivate: false };

test('at connect time: a name resolving to 127.0.0.1, or to any refused address among public ones, is never connected to', async (t) => {
  const r = await receiver(t);
  const port = new URL(r.url).port;
  const localhost = await postJson(`https://localhost:${port}/hook`, '{}', {}, { rules });
  t.regex(localhost.error!, /localhost resolves to a refused address: 127\.0\.0\.1 is a loopback address/);
  const mixed: Resolver = async () => [
    { address: '93.184.216.34', family: 4 },
    { address: '127.0.0.1', family: 4 },
  ];
  const rebinding = await postJson(`https://hooks.example:${port}/hook`, '{}', {}, { rules, resolve: mixed });
  t.regex(rebinding.error!, /hooks\.example resolves to a refused address: 127\.0\.0\.1/);
  const mappedName: Resolver = async () => [{ address: '::ffff:127.0.0.1', family: 6 }];
  t.regex((await postJson(`https://hooks.example:${port}/`, '{}', {}, { rules, resolve: mappedName })).error!, /loopback/);
  t.is(r.received.length, 0);
});

test('the address the lookup answers is the one connected to', async (t) => {
  const r = await receiver(t);
  const port = new URL(r.url).port;
  const toReceiver: Resolver = async () => [{ address: '127.0.0.1', family: 4 }];
  const result = await postJson(`http://hooks.example:${port}/hook`, '{"a":1}', {}, { rules: { allowPrivate: true }, resolve: toReceiver });
  t.is(result.status, 204);
  t.is(r.received.length, 1);
  t.is(r.received[0]!.headers.host, `hooks.example:${port}`);
});

async function server(t: ExecutionContext, handle: http.RequestListener): Promise<string> {
  const s = http.createServer(handle);
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    s.closeAllConnections();
    s.close();
  });
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}/hook`;
}

test('a redirect is not followed: the delivery fails, the place it points to gets nothing', async (t) => {
  const env = await envFor(t, { WEBHOOK_ALLOW_PRIVATE: '1' });
  const a = await userWithRole(env, 'owner');
  const target = await receiver(t);
  const redirecting = await receiver(t);
  redirecting.answer({ status: 302, headers: { location: target.url } });
  const created = await api(t, env, a, 'post', '/api/webhooks', { url: redirecting.url, format: 'discord', events: ['ban.created'] });
  await api(t, env, a, 'post', '/api/bans', { platformId: '76561198722222222' });
  await deliverWebhooks(env.deps);
  t.is(redirecting.received.length, 1);
  t.is(target.received.length, 0);
  const [attempt] = (await api(t, env, a, 'get', `/api/webhooks/${created.body.webhook.id}/deliveries`)).body.deliveries;
  t.like(attempt, { outcome: 'failed', statusCode: 302, error: 'redirect (HTTP 302) not followed' });
});

test('at most 64 kB of an answer is read; a request with no answer ends at its time limit', async (t) => {
  const big = await server(t, (req, res) => {
    req.resume();
    res.writeHead(500);
    res.end(Buffer.alloc(1024 * 1024, 'x'));
  });
  const long = await postJson(big, '{}', {}, { rules: { allowPrivate: true } });
  t.is(long.status, 500);
  t.true(long.body.length <= responseLimitBytes);
  const silent = await server(t, (req) => req.resume());
  const timedOut = await postJson(silent, '{}', {}, { rules: { allowPrivate: true }, timeoutMs: 200 });
  t.is(timedOut.status, undefined);
  t.is(timedOut.error, 'no answer within 0.2 s');
});
