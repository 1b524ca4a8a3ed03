import test from 'ava';
import type Router from '@koa/router';
import { Validator } from '@seriousme/openapi-schema-validator';
import { routersOf } from '../../src/app.ts';
import { buildOpenApiDocument, operations } from '../../src/openapi/document.ts';
import { testEnv } from '../helpers/env.ts';
import type { TestEnv } from '../helpers/env.ts';

let env: TestEnv;
test.before(async () => {
  env = await testEnv();
});
test.after.always(async () => {
  await env?.close();
});

interface OpenApiDocument {
  openapi: string;
  info: { version: string };
  paths: Record<
    string,
    Record<
      string,
      { parameters?: { name: string; in: string }[]; responses: Record<string, { content?: Record<string, { schema: { $ref: string } }> }> }
    >
  >;
}

const fetchDocument = async () => {
  const res = await env.request.get('/api/v1/openapi.json');
  return { res, doc: res.body as OpenApiDocument };
};

/** A router path in OpenAPI form: :param, *wildcard and {/*wildcard} become {name}. */
const openApiPath = (path: string) => path.replace(/\{\/\*(\w+)\}/g, '/{$1}').replace(/[:*](\w+)/g, '{$1}');

/** "get /api/v1/data/servers/{serverId}" for every route the app's routers register (HEAD comes with GET). */
function registeredRoutes(): string[] {
  const routers: Router[] = routersOf(env.deps) as unknown as Router[];
  const routes = new Set<string>();
  for (const router of routers) {
    for (const layer of router.stack) {
      for (const method of layer.methods) {
        if (method === 'HEAD') continue;
        routes.add(`${method.toLowerCase()} ${openApiPath(String(layer.path))}`);
      }
    }
  }
  return [...routes].sort();
}

test('GET /api/v1/openapi.json needs no key and declares OpenAPI 3.1 and version 1.0.0', async (t) => {
  const { res, doc } = await fetchDocument();
  t.is(res.status, 200);
  t.regex(res.headers['content-type'] ?? '', /^application\/json/);
  t.regex(doc.openapi, /^3\.1\.\d+$/);
  t.is(doc.info.version, '1.0.0');
  t.deepEqual(doc, JSON.parse(JSON.stringify(buildOpenApiDocument())));
});

test('the document is a valid OpenAPI 3.1 document whose references all resolve', async (t) => {
  const { doc } = await fetchDocument();
  const validator = new Validator();
  const result = await validator.validate(doc as unknown as Record<string, unknown>);
  t.true(result.valid, JSON.stringify(result.errors, null, 2)?.slice(0, 2000));
  t.is(validator.version, '3.1');
  t.notThrows(() => validator.resolveRefs(), 'every $ref resolves');
});

test('every route registered in the app is in the document, and every documented operation is a route', async (t) => {
  const { doc } = await fetchDocument();
  const routes = registeredRoutes();
  t.true(routes.length >= 8, `found the routers' routes: ${routes.join(', ')}`);
  const documented = Object.entries(doc.paths)
    .flatMap(([path, ops]) => Object.keys(ops).map((method) => `${method} ${path}`))
    .sort();
  t.deepEqual(
    routes.filter((r) => !documented.includes(r)),
    [],
    'routes missing from the document',
  );
  t.deepEqual(
    documented.filter((d) => !routes.includes(d)),
    [],
    'documented operations that are no route',
  );
  t.deepEqual(operations.map((op) => `${op.method} ${op.path}`).sort(), documented);
});

test('the Data API operations document their parameters, errors and response schemas', async (t) => {
  const { doc } = await fetchDocument();
  const expected: Record<string, { schema: string; query: string[] }> = {
    '/api/v1/data/servers': { schema: 'ServerList', query: [] },
    '/api/v1/data/servers/{serverId}': { schema: 'ServerStatus', query: [] },
    '/api/v1/data/servers/{serverId}/players': { schema: 'OnlinePlayers', query: [] },
    '/api/v1/data/servers/{serverId}/leaderboard': { schema: 'LeaderboardPage', query: ['limit', 'offset', 'sort'] },
    '/api/v1/data/servers/{serverId}/kills': { schema: 'KillfeedPage', query: ['before', 'limit'] },
    '/api/v1/data/servers/{serverId}/bans': { schema: 'BanList', query: ['active', 'limit', 'offset'] },
  };
  for (const [path, { schema, query }] of Object.entries(expected)) {
    const op = doc.paths[path]?.get;
    if (!op) {
      t.fail(`${path} is not documented`);
      continue;
    }
    t.is(op.responses['200']?.content?.['application/json']?.schema.$ref, `#/components/schemas/${schema}`, path);
    for (const status of ['401', '429', '503']) t.truthy(op.responses[status], `${path} documents ${status}`);
    if (path.includes('{serverId}')) {
      t.truthy(op.responses['404'], `${path} documents 404`);
      t.true(
        op.parameters?.some((p) => p.name === 'serverId' && p.in === 'path'),
        `${path} documents serverId`,
      );
    }
    t.deepEqual(
      (op.parameters ?? [])
        .filter((p) => p.in === 'query')
        .map((p) => p.name)
        .sort(),
      query,
      `${path} query parameters`,
    );
    if (query.length > 0) t.truthy(op.responses['400'], `${path} documents 400`);
  }
});
