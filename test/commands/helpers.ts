// Test helpers for agent commands: a community with an owner and a server, and the calls the
// server's agent makes with its ingest token (the long poll, a result, the active bans).
import type { Deps } from '../../src/deps.ts';
import { registerServer } from '../../src/servers/server.ts';
import { userWithRole } from '../helpers/controller.ts';
import type { Session } from '../helpers/controller.ts';
import type { TestEnv } from '../helpers/env.ts';
import { tenant } from '../helpers/seed.ts';
import type { Tenant } from '../helpers/seed.ts';

export interface Community extends Tenant {
  owner: Session;
}

export async function community(env: TestEnv): Promise<Community> {
  const a = await tenant(env.deps);
  return { ...a, owner: await userWithRole(env, 'owner', a.accountId) };
}

/** Another server of the account, with its own ingest token. */
export async function secondServer(deps: Deps, accountId: string, name = 'server two'): Promise<{ serverId: string; token: string }> {
  const { server, ingestToken } = await registerServer(deps, accountId, { name });
  return { serverId: server.id, token: ingestToken };
}

export const poll = (env: TestEnv, s: { serverId: string; token: string }, wait = 0) =>
  env.request.get(`/api/servers/${s.serverId}/commands/next?wait=${wait}`).set('Authorization', `Bearer ${s.token}`);

export const answer = (env: TestEnv, s: { serverId: string; token: string }, commandId: string, body: unknown) =>
  env.request
    .post(`/api/servers/${s.serverId}/commands/${commandId}/result`)
    .set('Authorization', `Bearer ${s.token}`)
    .send(body as object);

export const activeBans = (env: TestEnv, s: { serverId: string; token: string }, etag?: string) => {
  const req = env.request.get(`/api/servers/${s.serverId}/bans/active`).set('Authorization', `Bearer ${s.token}`);
  return etag ? req.set('If-None-Match', etag) : req;
};
