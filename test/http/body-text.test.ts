// What arrives in a body is checked and normalised once, on the way in: a body that does not
// decode as its Content-Encoding says is a 400, nesting is bounded, lone surrogates become U+FFFD
// in both stores alike; and a client's mistake (its method, its body) is never logged as an error.
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { pino } from 'pino';
import supertest from 'supertest';
import { createApp } from '../../src/app.ts';
import { closeDeps, connectDeps, createDeps } from '../../src/deps.ts';
import { maxJsonDepth, normaliseJsonText } from '../../src/http/text.ts';
import { controllerEnv, logCollector } from '../helpers/controller-http.ts';
import type { TestEnv } from '../helpers/env.ts';
import { assertError } from '../helpers/data-api.ts';
import { dataGet, ev, ingest, player, tenant } from '../helpers/seed.ts';

let env: TestEnv;
let lines: string[];
test.before(async () => {
  const base = await controllerEnv();
  const collected = logCollector();
  lines = collected.lines;
  const deps = createDeps(base.deps.config, { clock: base.clock, log: pino({ level: 'info' }, collected.stream) });
  // Closed by the after hook even when connecting fails: nothing may hold the process open.
  env = {
    deps,
    clock: base.clock,
    request: supertest(createApp(deps).callback()),
    close: async () => {
      await closeDeps(deps);
      await base.close();
    },
  };
  await connectDeps(deps);
});
test.after.always(async () => {
  await env?.close();
});

const errorLines = () => lines.map((l) => JSON.parse(l) as { level: number; msg?: string }).filter((l) => l.level >= 50);

test.serial(
  'a body that does not decode as its Content-Encoding says is a 400 on login, setup and ingestion; nothing is logged as an error',
  async (t) => {
    const a = await tenant(env.deps);
    const json = JSON.stringify({ username: 'someone', password: 'something long' });
    for (const encoding of ['gzip', 'br', 'deflate']) {
      for (const path of ['/api/auth/login', '/api/setup/admin', `/api/servers/${a.serverId}/events`]) {
        let req = env.request.post(path).set('Content-Type', 'application/json').set('Content-Encoding', encoding);
        if (path.endsWith('/events')) req = req.set('Authorization', `Bearer ${a.token}`);
        assertError(t, await req.send(json), 400, 'BAD_REQUEST', `${encoding} ${path}`);
      }
    }
    // A body that really is gzip still works.
    const gz = await env.request
      .post(`/api/servers/${a.serverId}/events`)
      .set('Authorization', `Bearer ${a.token}`)
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', 'gzip')
      .serialize((b: unknown) => b as string)
      .send(gzipSync(JSON.stringify({ events: [ev.kill(env.clock.now() - 1000, 1, 2)] })));
    t.is(gz.status, 200, JSON.stringify(gz.body));
    t.deepEqual(errorLines(), []);
  },
);

test.serial('a method no route has (TRACE) answers 501 with the Error body and is not logged as an error', async (t) => {
  const res = await env.request.trace('/api/servers');
  t.is(res.status, 501);
  t.deepEqual(errorLines(), []);
});

test.serial('an extra field nested 200,000 arrays deep is rejected with its event; the batch answers 200', async (t) => {
  const a = await tenant(env.deps);
  const deep = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
  const good = ev.kill(env.clock.now() - 1000, 1, 2);
  const body = `{"events":[${JSON.stringify(good)},{"id":"${randomUUID()}","type":"server.status","ts":${env.clock.now()},"online":true,"extra":${deep}}]}`;
  const res = await env.request
    .post(`/api/servers/${a.serverId}/events`)
    .set('Authorization', `Bearer ${a.token}`)
    .set('Content-Type', 'application/json')
    .send(body);
  t.is(res.status, 200, JSON.stringify(res.body).slice(0, 300));
  t.is(res.body.accepted, 1);
  t.deepEqual(res.body.rejected, [{ index: 1, error: `nesting deeper than ${maxJsonDepth} levels` }]);
  t.deepEqual(errorLines(), []);
});

test.serial('a lone surrogate in a name is stored as U+FFFD, and both stores show the same text', async (t) => {
  const a = await tenant(env.deps);
  const now = env.clock.now();
  const res = await ingest(env, a, [ev.kill(now - 1000, 1, 2, { killer: { platformId: player(1).platformId, name: '\ud800x' } })]);
  t.is(res.status, 200);
  const board = await dataGet(env, a, `/servers/${a.serverId}/leaderboard`);
  const feed = await dataGet(env, a, `/servers/${a.serverId}/kills`);
  t.is(board.body.players[0].name, '\ufffdx');
  t.is(feed.body.kills[0].killerName, '\ufffdx');
  t.false(board.text.includes('\\ud800'), 'strict JSON parsers can read the leaderboard');
});

test('property: normaliseJsonText never throws, leaves only well-formed strings, and refuses NUL', (t) => {
  const wellFormed = (s: string) => !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s);
  const strings: string[] = [];
  const collect = (v: unknown): void => {
    if (typeof v === 'string') strings.push(v);
    else if (Array.isArray(v)) v.forEach(collect);
    else if (v && typeof v === 'object')
      for (const [k, x] of Object.entries(v)) {
        strings.push(k);
        collect(x);
      }
  };
  fc.assert(
    fc.property(fc.jsonValue({ maxDepth: 6 }), fc.string({ unit: 'binary' }), (value, text) => {
      const body = { value, text };
      const problem = normaliseJsonText(body);
      strings.length = 0;
      collect(body);
      if (problem) return problem.includes('NUL');
      return strings.every(wellFormed) && !strings.some((s) => s.includes('\u0000'));
    }),
  );
  t.pass();
});
