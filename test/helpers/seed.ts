// Test data through the service's own functions: accounts, keys, servers, events.
import { randomUUID } from 'node:crypto';
import type { ExecutionContext } from 'ava';
import type { Deps } from '../../src/deps.ts';
import { insertAccount } from '../../src/accounts/account.repo.ts';
import { mintApiKey } from '../../src/accounts/api-key.ts';
import type { ApiKeyTier } from '../../src/accounts/api-key.repo.ts';
import { registerServer } from '../../src/servers/server.ts';
import { validatorFor, describeErrors } from '../../src/http/schemas.ts';
import type { TestEnv } from './env.ts';

export interface Tenant {
  accountId: string;
  key: string;
  keyId: string;
  serverId: string;
  token: string;
}

/** An account with one API key and one server. */
export async function tenant(deps: Deps, tier: ApiKeyTier = 'standard'): Promise<Tenant> {
  const account = await insertAccount(deps.db, `community ${randomUUID().slice(0, 8)}`);
  const { record, key } = await mintApiKey(deps, account.id, 'test', tier);
  const { server, ingestToken } = await registerServer(deps, account.id, { name: 'server one' });
  return { accountId: account.id, key, keyId: record.id, serverId: server.id, token: ingestToken };
}

export const player = (n: number) => ({ platformId: `7656119800000${String(n).padStart(4, '0')}`, name: `player${n}` });

type Ev = Record<string, unknown>;
export const ev = {
  kill: (tsMs: number, killer: number, victim: number, extra: Ev = {}): Ev => ({
    id: randomUUID(),
    type: 'kill',
    ts: tsMs,
    killer: player(killer),
    victim: player(victim),
    weapon: 'M4A1',
    distance: 100,
    isHeadshot: false,
    ...extra,
  }),
  presence: (type: 'player.connect' | 'player.heartbeat' | 'player.disconnect', tsMs: number, n: number, extra: Ev = {}): Ev => ({
    id: randomUUID(),
    type,
    ts: tsMs,
    ...player(n),
    ...extra,
  }),
  status: (tsMs: number, extra: Ev = {}): Ev => ({ id: randomUUID(), type: 'server.status', ts: tsMs, online: true, ...extra }),
  shots: (tsMs: number, n: number, fired: number, hits: number): Ev => ({
    id: randomUUID(),
    type: 'shots',
    ts: tsMs,
    platformId: player(n).platformId,
    fired,
    hits,
  }),
};

export function ingest(env: TestEnv, t: Pick<Tenant, 'serverId' | 'token'>, events: unknown[]) {
  return env.request.post(`/api/servers/${t.serverId}/events`).set('Authorization', `Bearer ${t.token}`).send({ events });
}

export function dataGet(env: TestEnv, t: Pick<Tenant, 'key'>, path: string) {
  return env.request.get(`/api/v1/data${path}`).set('Authorization', `Bearer ${t.key}`);
}

/** Asserts a body matches a schema of schemas/ (every Data API response in the tests goes through this). */
export function assertSchema(t: ExecutionContext, schemaId: string, body: unknown): void {
  const validate = validatorFor(schemaId);
  t.true(validate(body), `${schemaId}: ${describeErrors(validate.errors)} in ${JSON.stringify(body).slice(0, 300)}`);
}
