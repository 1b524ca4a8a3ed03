// The service is composed from one list of capabilities (src/capabilities.ts): every route a
// capability declares is mounted in the app and reached by a request for it (no earlier router,
// guard or middleware answers in its place), no two routers declare the same route, and every job
// a capability declares is in the worker, under a name of its own, and scheduled.
import { readdir } from 'node:fs/promises';
import test from 'ava';
import type Router from '@koa/router';
import schedule from 'node-schedule';
import supertest from 'supertest';
import { createApp } from '../../src/app.ts';
import { capabilities } from '../../src/capabilities.ts';
import { CacheDrops } from '../../src/store/invalidation.ts';
import { jobs, scheduleJobs } from '../../workers/main.ts';
import { controllerEnv } from '../helpers/controller-http.ts';
import type { TestEnv } from '../helpers/env.ts';

let env: TestEnv;
test.before(async () => {
  env = await controllerEnv();
});
test.after.always(async () => {
  await env?.close();
});

interface Route {
  capability: string;
  router: Router;
  method: string;
  path: string;
}

/** Every route of every capability's routers (HEAD comes with GET; guards have no methods). */
function declaredRoutes(): Route[] {
  return capabilities.flatMap((c) =>
    (c.routers?.(env.deps) ?? []).flatMap((router) =>
      router.stack.flatMap((layer) =>
        layer.methods
          .filter((method) => method !== 'HEAD')
          .map((method) => ({ capability: c.name, router: router as unknown as Router, method, path: String(layer.path) })),
      ),
    ),
  );
}

/** A request path for a route: each parameter a UUID, a wildcard a file two segments down. */
const samplePath = (path: string) =>
  path
    .replace(/\{\/\*\w+\}/g, '/a/b.png')
    .replace(/\*\w+/g, 'a/b.png')
    .replace(/:\w+/g, '8c3f6a52-1d0e-4b7a-9f5e-2a6b7c8d9e0f');

/** A route with its parameters' names left out: /api/servers/:id and /api/servers/:serverId are one route. */
const routeKey = (r: Pick<Route, 'method' | 'path'>) => `${r.method} ${r.path.replace(/[:*]\w+/g, ':')}`;

/** What tells routers apart here: their routes. */
const routesOf = (router: Pick<Router, 'stack'>) =>
  router.stack
    .map((layer) => `${layer.methods.join(',')} ${String(layer.path)}`)
    .sort()
    .join('\n');

test("every capability description under src/ (a folder's capability.ts) is in the list, once", async (t) => {
  const src = new URL('../../src/', import.meta.url);
  const folders = (await readdir(src, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name);
  const described: unknown[] = [];
  for (const folder of folders) {
    const files = await readdir(new URL(`${folder}/`, src));
    if (files.includes('capability.ts')) described.push(...Object.values(await import(new URL(`${folder}/capability.ts`, src).href)));
  }
  t.true(described.length >= capabilities.length, `${described.length} descriptions`);
  t.deepEqual(
    described.filter((d) => !(capabilities as readonly unknown[]).includes(d)),
    [],
    'described but not listed in src/capabilities.ts',
  );
  t.is(new Set(capabilities).size, capabilities.length);
  for (const c of capabilities) t.true(folders.includes(c.name), `${c.name} names its folder`);
});

test('every route of every capability is mounted, and a request for it reaches its own router', async (t) => {
  const app = createApp(env.deps);
  const answered: { by?: Pick<Router, 'stack'> } = {};
  app.middleware.unshift(async (ctx, next) => {
    (ctx as { router?: Router }).router = undefined;
    await next();
    // @koa/router sets ctx.router to each router it dispatches to; the last is the one that answered.
    answered.by = (ctx as { router?: Router }).router;
  });
  const request = supertest(app.callback());
  const routes = declaredRoutes();
  t.true(routes.length > 80, `${routes.length} routes`);
  for (const capability of capabilities.filter((c) => c.routers)) {
    t.true(
      routes.some((r) => r.capability === capability.name),
      `${capability.name} declares routes`,
    );
  }
  for (const route of routes) {
    const path = samplePath(route.path);
    const res = await request[route.method.toLowerCase() as 'get'](path).set('Accept', 'application/json');
    const what = `${route.method} ${path} (${route.capability})`;
    t.false(res.status === 404 && res.body.message === 'route not found', `${what}: no route answered`);
    t.false([405, 501].includes(res.status), `${what}: ${res.status}`);
    t.is(answered.by && routesOf(answered.by), routesOf(route.router), `${what} is answered by its own router`);
  }
});

test('the agent asking for its next command reaches the agent router, not the session guard of /api/servers/:id/commands/:commandId', async (t) => {
  const routes = declaredRoutes();
  const next = routes.find((r) => r.method === 'GET' && r.path === '/api/servers/:serverId/commands/next');
  const byId = routes.find((r) => r.method === 'GET' && r.path === '/api/servers/:id/commands/:commandId');
  t.truthy(next && byId, 'both routes are declared');
  t.not(next!.router, byId!.router);
  t.true(byId!.router.match(samplePath(next!.path), 'GET').route, 'the session route matches the agent path too: the order matters');
  const res = await env.request.get(samplePath(next!.path));
  t.is(res.status, 401);
  t.regex(res.body.message, /ingest token/i);
});

test('no two routers declare the same route (method and path)', (t) => {
  const owners = new Map<string, string[]>();
  for (const route of declaredRoutes()) owners.set(routeKey(route), [...(owners.get(routeKey(route)) ?? []), route.capability]);
  t.deepEqual(
    [...owners].filter(([, names]) => names.length > 1),
    [],
  );
});

test("every capability's job is in the worker, under a name of its own, and scheduled by its rule", async (t) => {
  const declared = capabilities.flatMap((c) => (c.jobs ?? []).map((job) => job.name));
  t.true(declared.length >= 8, declared.join(', '));
  t.deepEqual(
    jobs.map((job) => job.name),
    declared,
  );
  t.is(new Set(declared).size, declared.length, 'job names are unique');
  const stop = scheduleJobs(env.deps, jobs);
  try {
    for (const job of jobs) {
      const scheduled = schedule.scheduledJobs[job.name];
      t.truthy(scheduled, `${job.name} is scheduled`);
      t.truthy(scheduled?.nextInvocation(), `${job.name}'s rule ${job.rule} has a next time`);
    }
  } finally {
    await stop();
  }
  t.deepEqual(Object.keys(schedule.scheduledJobs), [], 'stopped');
});

test("every capability's cache is in deps.caches under a name no other capability uses", (t) => {
  const names = capabilities.flatMap((c) => Object.keys(c.caches?.(env.deps, new CacheDrops()) ?? {}));
  t.is(new Set(names).size, names.length, names.join(', '));
  t.deepEqual(names.sort(), Object.keys(env.deps.caches).sort());
});
