// Controller test helpers over HTTP: an environment with the per-IP limits raised (every test call
// comes from one address), calls signed with a session's Bearer JWT or its cookie + CSRF token, and
// a writable that collects the service's log lines.
import { Writable } from 'node:stream';
import type { ExecutionContext } from 'ava';
import type { Response, Test } from 'supertest';
import { operations } from '../../src/openapi/document.ts';
import { assertSchema } from './seed.ts';
import { testEnv } from './env.ts';
import type { TestEnv } from './env.ts';
import type { Session } from './controller.ts';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** A fresh world whose controller limits never trip in a test run. */
export const controllerEnv = (env: Record<string, string> = {}) => testEnv({ RATE_AUTH: '100000', RATE_CONTROLLER: '100000', ...env });

/** A fresh world, closed when the test ends. */
export async function envFor(t: ExecutionContext, env: Record<string, string> = {}): Promise<TestEnv> {
  const created = await controllerEnv(env);
  t.teardown(() => created.close());
  return created;
}

/** A call as the session's user (Authorization: Bearer; no CSRF token needed), or without a session. */
export function call(env: TestEnv, session: Pick<Session, 'token'> | undefined, method: Method, path: string, body?: unknown): Test {
  let req = env.request[method](path);
  if (session) req = req.set('Authorization', `Bearer ${session.token}`);
  if (body !== undefined) req = req.send(body as object);
  return req;
}

const documented = operations
  .filter((op) => op.security === 'session' || op.security === undefined)
  .map((op) => ({
    op,
    pattern: new RegExp(`^${op.path.replace(/\{\w+\}/g, '[^/]+')}$`),
  }));

/**
 * A call (as `call`) whose answer is checked against the OpenAPI description of the route: the
 * status is one the operation documents, and the body matches that status's schema (error.json
 * for every error).
 */
export async function api(
  t: ExecutionContext,
  env: TestEnv,
  session: Pick<Session, 'token'> | undefined,
  method: Method,
  path: string,
  body?: unknown,
): Promise<Response> {
  const res = await call(env, session, method, path, body);
  const pathOnly = path.split('?')[0]!;
  const match = documented.find((d) => d.op.method === method && d.pattern.test(pathOnly));
  if (!match) {
    t.fail(`${method} ${pathOnly} is no documented controller operation`);
    return res;
  }
  const response = match.op.responses[res.status];
  t.truthy(response, `${method} ${match.op.path} documents its ${res.status} answer (${JSON.stringify(res.body).slice(0, 200)})`);
  if (res.status >= 400) assertSchema(t, 'error.json', res.body);
  else if (response?.[1]) assertSchema(t, response[1], res.body);
  return res;
}

/** A call as a browser makes it: the session cookies and, on unsafe methods, the X-CSRF-Token header. */
export function browserCall(env: TestEnv, session: Session, method: Method, path: string, body?: unknown): Test {
  let req = env.request[method](path).set('Cookie', session.cookie);
  if (method !== 'get') req = req.set('X-CSRF-Token', session.csrf);
  if (body !== undefined) req = req.send(body as object);
  return req;
}

/** Lines written by a pino logger, parsed as they arrive. */
export function logCollector(): { stream: Writable; lines: string[] } {
  const lines: string[] = [];
  let partial = '';
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      const text = partial + chunk.toString();
      const parts = text.split('\n');
      partial = parts.pop() ?? '';
      lines.push(...parts.filter((l) => l.length > 0));
      done();
    },
    final(done) {
      if (partial) lines.push(partial);
      done();
    },
  });
  return { stream, lines };
}
