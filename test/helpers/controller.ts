// Controller test helpers: first-run setup, sign-in, and users of any role, through the HTTP API
// (sign-in) and the service's own functions (accounts and users).
import { randomUUID } from 'node:crypto';
import { insertAccount } from '../../src/accounts/account.repo.ts';
import type { Role } from '../../src/auth/permissions.ts';
import { createUser } from '../../src/users/users.ts';
import type { TestEnv } from './env.ts';

export const password = 'correct horse battery staple';

export interface Session {
  userId: string;
  accountId: string;
  username: string;
  token: string;
  /** Cookie header value carrying auth-token and csrf-token. */
  cookie: string;
  csrf: string;
}

export async function signIn(env: TestEnv, username: string, pass = password, ip?: string): Promise<Session> {
  const req = env.request.post('/api/auth/login').send({ username, password: pass });
  if (ip) req.set('X-Forwarded-For', ip);
  const res = await req;
  if (res.status !== 200) throw new Error(`sign-in of ${username} failed: ${res.status} ${JSON.stringify(res.body)}`);
  const setCookies = res.headers['set-cookie'] as unknown as string[];
  const cookie = setCookies.map((c) => c.split(';')[0]).join('; ');
  const csrf = /csrf-token=([^;]+)/.exec(cookie)![1]!;
  return { userId: res.body.user.id, accountId: res.body.user.accountId, username, token: res.body.token, cookie, csrf };
}

/** Runs first-run setup (once per environment) and signs the operator's owner in. */
export async function setupOperator(env: TestEnv, username = 'operator'): Promise<Session> {
  const res = await env.request.post('/api/setup/admin').send({ accountName: 'Operator', username, password });
  if (res.status !== 201) throw new Error(`setup failed: ${res.status} ${JSON.stringify(res.body)}`);
  return signIn(env, username);
}

/** A user of the given role in a new community (or in accountId), signed in. */
export async function userWithRole(env: TestEnv, role: Role, accountId?: string): Promise<Session> {
  const account = accountId ?? (await insertAccount(env.deps.db, `community ${randomUUID().slice(0, 8)}`)).id;
  const username = `${role}-${randomUUID().slice(0, 8)}`;
  await createUser(env.deps, account, username, password, role);
  return signIn(env, username);
}
