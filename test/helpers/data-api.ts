// Assertions shared by the Data API tests: the Error record, request ids, rate-limit headers,
// and a deep scan for fields that must never be exposed.
import type { ExecutionContext } from 'ava';
import type { Response } from 'supertest';
import { assertSchema } from './seed.ts';

/** The five routes of one server (the list route is not per server). */
export const perServerPaths = (serverId: string) => [
  `/servers/${serverId}`,
  `/servers/${serverId}/players`,
  `/servers/${serverId}/leaderboard`,
  `/servers/${serverId}/kills`,
  `/servers/${serverId}/bans`,
];

/** Asserts an error answer: status, code, the Error record, and a request id that matches X-Request-Id. */
export function assertError(t: ExecutionContext, res: Response, status: number, code: string, what = ''): void {
  const where = what ? `${what}: ` : '';
  t.is(res.status, status, `${where}status (body ${JSON.stringify(res.body).slice(0, 200)})`);
  assertSchema(t, 'error.json', res.body);
  t.is(res.body.error, code, `${where}code`);
  t.is(res.body.statusCode, status, `${where}statusCode`);
  t.is(typeof res.body.message, 'string', `${where}message`);
  t.true(String(res.body.message).length > 0, `${where}message is not empty`);
  t.is(typeof res.body.requestId, 'string', `${where}requestId`);
  t.true(String(res.body.requestId).length > 0, `${where}requestId is not empty`);
  t.is(res.headers['x-request-id'], res.body.requestId, `${where}X-Request-Id matches requestId`);
}

/** Asserts the RateLimit-* headers of a rate-limited route's answer. */
export function assertRateLimitHeaders(t: ExecutionContext, res: Response, limit?: number): void {
  for (const name of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset']) {
    const value = res.headers[name];
    t.regex(String(value), /^\d+$/, `${name} present and a whole number`);
  }
  if (limit !== undefined) t.is(res.headers['ratelimit-limit'], String(limit));
}

/** Every property name anywhere in a JSON value. */
export function keysDeep(value: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const v of value) keysDeep(v, into);
  else if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) {
      into.add(k);
      keysDeep(v, into);
    }
  }
  return into;
}

/** Property names that would leak a live position. */
export const coordinateKeys = ['x', 'y', 'z', 'X', 'Y', 'Z', 'pos', 'position', 'coordinates', 'coords', 'location', 'lat', 'lon', 'lng'];

/** Asserts a body holds no coordinate field anywhere. */
export function assertNoCoordinates(t: ExecutionContext, body: unknown, what = ''): void {
  const keys = keysDeep(body);
  const leaked = coordinateKeys.filter((k) => keys.has(k));
  t.deepEqual(leaked, [], `${what} exposes no coordinate field`);
}
