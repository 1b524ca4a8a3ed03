// The controller part of GET /api/v1/openapi.json: every route the app's routers register
// (routersOf) is described with the same method, the document stays a valid OpenAPI 3.1
// document, and the controller operations declare what their routes do (sessions, bodies, ids).
import test from 'ava';
import { Validator } from '@seriousme/openapi-schema-validator';
import { routersOf } from '../../src/app.ts';
import { controllerOperations } from '../../src/openapi/controller.ts';
import { controllerEnv } from '../helpers/controller-http.ts';
import type { TestEnv } from '../helpers/env.ts';

let env: TestEnv;
test.before(async () => {
  env = await controllerEnv();
});
test.after.always(async () => {
  await env?.close();
});

interface OperationObject {
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string; required?: boolean }[];
  requestBody?: { required?: boolean; content: Record<string, { schema: { $ref: string } }> };
  responses: Record<string, { content?: Record<string, { schema: { $ref: string } }> }>;
}
interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, OperationObject>>;
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
}

const fetchDocument = async () => {
  const res = await env.request.get('/api/v1/openapi.json');
  if (res.status !== 200) throw new Error(`GET /api/v1/openapi.json answered ${res.status}`);
  return res.body as OpenApiDocument;
};

/** A router path in OpenAPI form: `:id` and `*path` (and `{/*path}`) become `{id}`, `{path}`. */
const openApiPath = (path: string) => path.replace(/\{\/\*(\w+)\}/g, '/{$1}').replace(/[:*](\w+)/g, '{$1}');

/** "get /api/users/{id}" for every route of routersOf (HEAD comes with GET; middleware layers have no methods). */
function registeredRoutes(): string[] {
  const routes = new Set<string>();
  for (const router of routersOf(env.deps)) {
    for (const layer of router.stack) {
      for (const method of layer.methods) {
        if (method === 'HEAD') continue;
        routes.add(`${method.toLowerCase()} ${openApiPath(String(layer.path))}`);
      }
    }
  }
  return [...routes].sort();
}

const documentedOf = (doc: OpenApiDocument) =>
  Object.entries(doc.paths)
    .flatMap(([path, ops]) => Object.keys(ops).map((method) => `${method} ${path}`))
    .sort();

test('every route registered by the routers of the app is in the document with the same method', async (t) => {
  const doc = await fetchDocument();
  const routes = registeredRoutes();
  // The controller routes this project has today must be among them (guards against an empty scan).
  for (const route of [
    'get /api/setup/status',
    'post /api/setup/admin',
    'post /api/auth/login',
    'post /api/auth/logout',
    'get /api/users',
    'patch /api/users/{id}',
    'delete /api/account/api-keys/{id}',
    'post /api/servers/{id}/ingest-token',
    'get /api/audit',
    'post /api/accounts',
    'put /api/operator/data-api',
    'get /api/maps/tiles/{path}',
  ]) {
    t.true(routes.includes(route), `the scan finds ${route}`);
  }
  const documented = documentedOf(doc);
  t.deepEqual(
    routes.filter((r) => !documented.includes(r)),
    [],
    'routes missing from the document',
  );
});

test('every documented controller operation is a registered route', async (t) => {
  const doc = await fetchDocument();
  const routes = registeredRoutes();
  const controller = documentedOf(doc).filter((op) => !op.split(' ')[1]!.startsWith('/api/v1/'));
  t.true(controller.length >= 20);
  t.deepEqual(
    controller.filter((op) => !routes.includes(op)),
    [],
    'documented operations without a route',
  );
});

test('the document is a valid OpenAPI 3.1 document whose references all resolve', async (t) => {
  const doc = await fetchDocument();
  const validator = new Validator();
  const result = await validator.validate(doc as unknown as Record<string, unknown>);
  t.true(result.valid, JSON.stringify(result.errors, null, 2)?.slice(0, 2000));
  t.is(validator.version, '3.1');
  t.notThrows(() => validator.resolveRefs(), 'every $ref resolves');
});

test('controller operations declare their session, body, path ids and error answers', async (t) => {
  const doc = await fetchDocument();
  t.truthy(doc.components.securitySchemes.sessionCookie);
  t.truthy(doc.components.securitySchemes.sessionBearer);
  for (const op of controllerOperations) {
    const where = `${op.method} ${op.path}`;
    const documented = doc.paths[op.path]?.[op.method];
    if (!documented) {
      t.fail(`${where} is not in the document`);
      continue;
    }
    if (op.security === 'session') {
      t.deepEqual(documented.security, [{ sessionCookie: [] }, { sessionBearer: [] }], `${where} security`);
      for (const status of ['401', '403']) t.truthy(documented.responses[status], `${where} documents ${status}`);
    }
    if (op.body) {
      t.true(documented.requestBody?.required === true, `${where} body is required`);
      t.regex(
        documented.requestBody?.content['application/json']?.schema.$ref ?? '',
        /^#\/components\/schemas\/\w+$/,
        `${where} body schema`,
      );
      t.truthy(documented.responses['400'], `${where} documents 400`);
    }
    for (const name of [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!)) {
      t.true(
        documented.parameters?.some((p) => p.name === name && p.in === 'path' && p.required === true),
        `${where} declares path parameter ${name}`,
      );
    }
    const success = Object.keys(documented.responses).filter((s) => s.startsWith('2'));
    t.is(success.length, 1, `${where} has one success answer`);
    for (const [status, response] of Object.entries(documented.responses)) {
      if (!status.startsWith('4') && !status.startsWith('5')) continue;
      t.is(response.content?.['application/json']?.schema.$ref, '#/components/schemas/Error', `${where} ${status} is an Error`);
    }
  }
});
