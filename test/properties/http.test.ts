import test from 'ava';
import type { ExecutionContext } from 'ava';
import fc from 'fast-check';
import type { Response } from 'supertest';
import { testEnv } from '../helpers/env.ts';
import type { TestEnv } from '../helpers/env.ts';
import { assertSchema, ev, tenant } from '../helpers/seed.ts';
import type { Tenant } from '../helpers/seed.ts';
import { anyText, dateTimeText, eventLike, queryValue, rawUrlText } from '../helpers/arbitraries.ts';
import { validatorFor } from '../../src/http/schemas.ts';

// One environment; its limits are raised so that hundreds of requests meet no 429 (the limiters still run).
let env: TestEnv;
let a: Tenant;
test.before(async () => {
  env = await testEnv({ RATE_DATA_STANDARD: '1000000', RATE_INGEST: '1000000' });
  a = await tenant(env.deps);
  const now = env.clock.now();
  const res = await env.request
    .post(`/api/servers/${a.serverId}/events`)
    .set('Authorization', `Bearer ${a.token}`)
    .send({
      events: [
        ev.status(now - 5000, { players: 2 }),
        ev.presence('player.connect', now - 4000, 1),
        ev.kill(now - 3000, 1, 2),
        ev.kill(now - 2000, 2, 1),
      ],
    });
  if (res.status !== 200) throw new Error(`seed failed: ${res.status}`);
});
test.after.always(async () => {
  await env?.close();
});

const numRuns = 100;
const isError = validatorFor('error.json');

/** No 5xx; an error answer is the Error body; returns a description of what went wrong, if anything. */
function problem(res: Response, allowed: (status: number) => boolean): string | undefined {
  if (!allowed(res.status)) return `status ${res.status}: ${res.text.slice(0, 200)}`;
  if (res.status >= 400 && !isError(res.body)) return `status ${res.status} without the Error body: ${res.text.slice(0, 200)}`;
  return undefined;
}

async function holds(t: ExecutionContext, property: fc.IAsyncProperty<[string]> | fc.IAsyncPropertyWithHooks<[string]>) {
  const details = await fc.check(property, { numRuns });
  t.false(details.failed, fc.defaultReportMessage(details) ?? '');
}

const data = (path: string) => env.request.get(`/api/v1/data${path}`).set('Authorization', `Bearer ${a.key}`);
const routes = () => [
  '/servers',
  `/servers/${a.serverId}`,
  `/servers/${a.serverId}/players`,
  `/servers/${a.serverId}/leaderboard`,
  `/servers/${a.serverId}/kills`,
  `/servers/${a.serverId}/bans`,
];

/** A query string: encoded pairs of arbitrary keys and values, or raw text with broken escapes. */
const queryString = fc.oneof(
  fc
    .array(
      fc.tuple(fc.oneof(fc.constantFrom('limit', 'offset', 'sort', 'before', 'active'), anyText), fc.oneof(queryValue, dateTimeText)),
      { maxLength: 5 },
    )
    .map((pairs) =>
      pairs.flatMap(([k, v]) => (Array.isArray(v) ? v : [v]).map((x) => `${encodeURIComponent(k)}=${encodeURIComponent(x)}`)).join('&'),
    ),
  fc.constantFrom('before', 'limit', 'offset', 'sort', 'active').chain((k) => dateTimeText.map((v) => `${k}=${encodeURIComponent(v)}`)),
  rawUrlText,
);

test('arbitrary query strings on every Data API route never produce a 5xx', async (t) => {
  await holds(
    t,
    fc.asyncProperty(
      fc.tuple(fc.constantFrom(...routes()), queryString).map(([route, q]) => `${route}?${q}`),
      async (path) => {
        const res = await data(path);
        const wrong = problem(res, (s) => s === 200 || s === 400);
        if (wrong) throw new Error(`${path}: ${wrong}`);
        if (res.status === 200 && path.includes('/leaderboard')) assertSchema(t, 'leaderboard-page.json', res.body);
        if (res.status === 200 && path.includes('/kills')) assertSchema(t, 'killfeed-page.json', res.body);
      },
    ),
  );
});

test('arbitrary `before` date-times on the killfeed answer 200 or 400, never 5xx', async (t) => {
  await holds(
    t,
    fc.asyncProperty(dateTimeText, async (before) => {
      const res = await data(`/servers/${a.serverId}/kills?before=${encodeURIComponent(before)}`);
      const wrong = problem(res, (s) => s === 200 || s === 400);
      if (wrong) throw new Error(`before=${before}: ${wrong}`);
    }),
  );
});

/** A path segment: encoded unicode, raw text with broken escapes, dot segments, or very long. */
const segment = fc.oneof(
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }).map(encodeURIComponent),
  rawUrlText,
  fc.constantFrom(
    '%2e%2e',
    '%2E%2E',
    '..',
    '.',
    '%2e',
    '..%2f..%2fhealth',
    '%2e%2e%2f%2e%2e',
    '%00',
    '%',
    '%zz',
    '%E0%A4%A',
    '%c0%ae%c0%ae',
    '%ff%fe',
    '\u00e9'.normalize('NFD').split('').map(encodeURIComponent).join(''),
  ),
  fc.integer({ min: 200, max: 6000 }).map((n) => 'a'.repeat(n)),
  fc.integer({ min: 50, max: 700 }).map((n) => '%F0%9F%98%80'.repeat(n)),
  fc.uuid().map((u) => `${u}x`),
  fc.uuid(),
);

test('arbitrary path segments under /api/v1/data/servers/ answer 4xx with the Error body', async (t) => {
  const suffixes = ['', '/players', '/leaderboard', '/kills', '/bans', '/nope'];
  await holds(
    t,
    fc.asyncProperty(
      fc.tuple(segment, fc.constantFrom(...suffixes)).map(([s, suffix]) => `/servers/${s}${suffix}`),
      async (path) => {
        const res = await data(path);
        const wrong = problem(res, (s) => s >= 400 && s < 500);
        if (wrong) throw new Error(`${path.slice(0, 120)}: ${wrong}`);
      },
    ),
  );
});

/** A body for the ingest route: arbitrary JSON, arbitrary text, or batches of valid, broken and odd events. */
const ingestBody = fc.oneof(
  fc.jsonValue().map((v) => JSON.stringify(v) ?? 'null'),
  fc.string({ unit: 'grapheme', maxLength: 200 }),
  fc.json(),
  fc.record({ events: fc.anything() }).map((v) => JSON.stringify(v) ?? 'null'),
  fc.array(eventLike(Date.parse('2026-11-22T12:00:00.000Z')), { minLength: 1, maxLength: 30 }).map((events) => JSON.stringify({ events })),
  fc
    .array(eventLike(Date.parse('2026-11-22T12:00:00.000Z')), { minLength: 1, maxLength: 5 })
    .map((events) => JSON.stringify({ events }).slice(0, -3)),
);

test('arbitrary bodies sent to the ingest route never produce a 5xx', async (t) => {
  await holds(
    t,
    fc.asyncProperty(ingestBody, async (body) => {
      const res = await env.request
        .post(`/api/servers/${a.serverId}/events`)
        .set('Authorization', `Bearer ${a.token}`)
        .set('Content-Type', 'application/json')
        .send(body);
      const wrong = problem(res, (s) => s === 200 || s === 400);
      if (wrong) throw new Error(`${body.slice(0, 200)}: ${wrong}`);
      if (res.status === 200 && !validatorFor('ingest-result.json')(res.body)) throw new Error(`result ${res.text}`);
    }),
  );
});

test('arbitrary query strings, paths and content types on the ingest route never produce a 5xx', async (t) => {
  const request = fc.record({
    path: fc.oneof(fc.constant(a.serverId), segment),
    query: queryString,
    type: fc.oneof(
      fc.constantFrom(
        'application/json',
        'text/plain',
        'application/json; charset=latin1',
        'application/x-www-form-urlencoded',
        'application/vnd.api+json',
        'multipart/form-data',
      ),
      fc.string({ maxLength: 30 }),
    ),
    body: ingestBody,
  });
  await holds(
    t,
    fc.asyncProperty(
      request.map((r) => JSON.stringify(r)),
      async (text) => {
        const r = JSON.parse(text) as { path: string; query: string; type: string; body: string };
        let req = env.request.post(`/api/servers/${r.path}/events?${r.query}`).set('Authorization', `Bearer ${a.token}`);
        try {
          req = req.set('Content-Type', r.type);
        } catch {
          // A header value Node refuses to send is no request at all.
          return;
        }
        const res = await req.send(r.body);
        const wrong = problem(res, (s) => s < 500);
        if (wrong) throw new Error(`${text.slice(0, 300)}: ${wrong}`);
      },
    ),
  );
});
