// The role table (docs/api.md, Roles) on every controller management route: a role lacking the route's
// permission gets 403 FORBIDDEN, a role holding it passes (and the call does what it should);
// without a session every route answers 401 UNAUTHORIZED. One line per route in `routes`.
import { randomUUID } from 'node:crypto';
import test from 'ava';
import type { ExecutionContext } from 'ava';
import { registerServer } from '../../src/servers/server.ts';
import { mintApiKey } from '../../src/accounts/api-key.ts';
import { createUser } from '../../src/users/users.ts';
import { password, setupOperator, userWithRole } from '../helpers/controller.ts';
import type { Session } from '../helpers/controller.ts';
import { call, controllerEnv } from '../helpers/controller-http.ts';
import type { Method } from '../helpers/controller-http.ts';
import { assertError } from '../helpers/data-api.ts';
import type { TestEnv } from '../helpers/env.ts';
import { assertSchema } from '../helpers/seed.ts';

type Perm =
  | 'users.manage'
  | 'apikeys.manage'
  | 'servers.manage'
  | 'servers.read'
  | 'audit.read'
  | 'settings.manage'
  | 'accounts.manage'
  | 'partners.manage';
type Role = 'owner' | 'admin' | 'moderator' | 'viewer';

/** The role table of docs/api.md, written out here (not read from src), for the permissions these routes need. */
const granted: Record<Role, Perm[]> = {
  owner: ['users.manage', 'apikeys.manage', 'servers.manage', 'servers.read', 'audit.read', 'settings.manage'],
  admin: ['apikeys.manage', 'servers.manage', 'servers.read', 'audit.read', 'settings.manage'],
  moderator: ['servers.read'],
  viewer: ['servers.read'],
};
/** Held in addition by owners of the network operator's account only. */
const network: Perm[] = ['accounts.manage', 'partners.manage'];

interface Principal {
  label: string;
  role: Role;
  operator: boolean;
  session: Session;
}

const holds = (p: Principal, perm: Perm) => granted[p.role].includes(perm) || (p.operator && p.role === 'owner' && network.includes(perm));

/** What a route needs to be called: the id of a fresh record of the caller's account. */
type Target = (env: TestEnv, accountId: string) => Promise<string>;
const freshServer: Target = async (env, accountId) =>
  (await registerServer(env.deps, accountId, { name: `srv ${randomUUID().slice(0, 6)}` })).server.id;
const freshUser: Target = async (env, accountId) =>
  (await createUser(env.deps, accountId, `u-${randomUUID().slice(0, 12)}`, password, 'viewer')).id;
const freshKey: Target = async (env, accountId) => (await mintApiKey(env.deps, accountId, 'k', 'standard')).record.id;

interface Route {
  method: Method;
  path: string;
  needs: Perm[];
  /** Fills :id. */
  target?: Target;
  body?: () => unknown;
  /** Status and answer schema when the permission is held. */
  ok: [number, string?];
}

const unique = () => randomUUID().slice(0, 12);

// Adding a route is one line.
const routes: Route[] = [
  { method: 'get', path: '/api/users', needs: ['users.manage'], ok: [200, 'user-list.json'] },
  {
    method: 'post',
    path: '/api/users',
    needs: ['users.manage'],
    body: () => ({ username: `new-${unique()}`, password, role: 'viewer' }),
    ok: [201, 'user.json'],
  },
  {
    method: 'patch',
    path: '/api/users/:id',
    needs: ['users.manage'],
    target: freshUser,
    body: () => ({ role: 'moderator' }),
    ok: [200, 'user.json'],
  },
  { method: 'delete', path: '/api/users/:id', needs: ['users.manage'], target: freshUser, ok: [204] },
  { method: 'get', path: '/api/account/api-keys', needs: ['apikeys.manage'], ok: [200, 'api-key-list.json'] },
  {
    method: 'post',
    path: '/api/account/api-keys',
    needs: ['apikeys.manage'],
    body: () => ({ name: 'standard key' }),
    ok: [201, 'api-key-created.json'],
  },
  {
    method: 'post',
    path: '/api/account/api-keys',
    needs: ['apikeys.manage', 'partners.manage'],
    body: () => ({ name: 'partner key', tier: 'partner' }),
    ok: [201, 'api-key-created.json'],
  },
  { method: 'delete', path: '/api/account/api-keys/:id', needs: ['apikeys.manage'], target: freshKey, ok: [204] },
  { method: 'get', path: '/api/servers', needs: ['servers.read'], ok: [200, 'managed-server-list.json'] },
  {
    method: 'post',
    path: '/api/servers',
    needs: ['servers.manage'],
    body: () => ({ name: 'new server' }),
    ok: [201, 'server-created.json'],
  },
  { method: 'get', path: '/api/servers/:id', needs: ['servers.read'], target: freshServer, ok: [200, 'managed-server.json'] },
  {
    method: 'patch',
    path: '/api/servers/:id',
    needs: ['servers.manage'],
    target: freshServer,
    body: () => ({ name: 'renamed' }),
    ok: [200, 'managed-server.json'],
  },
  { method: 'delete', path: '/api/servers/:id', needs: ['servers.manage'], target: freshServer, ok: [204] },
  { method: 'post', path: '/api/servers/:id/ingest-token', needs: ['servers.manage'], target: freshServer, ok: [200, 'ingest-token.json'] },
  { method: 'get', path: '/api/audit', needs: ['audit.read'], ok: [200, 'audit-page.json'] },
  { method: 'get', path: '/api/account/settings', needs: [], ok: [200, 'account-settings.json'] },
  {
    method: 'patch',
    path: '/api/account/settings',
    needs: ['settings.manage'],
    body: () => ({ clock: '12h' }),
    ok: [200, 'account-settings.json'],
  },
  {
    method: 'post',
    path: '/api/accounts',
    needs: ['accounts.manage'],
    body: () => ({ accountName: 'Added', username: `owner-${unique()}`, password }),
    ok: [201, 'account-created.json'],
  },
  { method: 'get', path: '/api/operator/data-api', needs: ['accounts.manage'], ok: [200, 'data-api-switch.json'] },
  {
    method: 'put',
    path: '/api/operator/data-api',
    needs: ['accounts.manage'],
    body: () => ({ enabled: true }),
    ok: [200, 'data-api-switch.json'],
  },
];

let env: TestEnv;
const principals: Principal[] = [];
test.before(async () => {
  env = await controllerEnv();
  const operatorOwner = await setupOperator(env);
  principals.push({ label: 'operator owner', role: 'owner', operator: true, session: operatorOwner });
  for (const role of ['admin', 'moderator', 'viewer'] as const) {
    principals.push({ label: `operator ${role}`, role, operator: true, session: await userWithRole(env, role, operatorOwner.accountId) });
  }
  for (const role of ['owner', 'admin', 'moderator', 'viewer'] as const) {
    principals.push({ label: `community ${role}`, role, operator: false, session: await userWithRole(env, role) });
  }
});
test.after.always(async () => {
  await env?.close();
});

const routeName = (r: Route) =>
  `${r.method.toUpperCase()} ${r.path}${r.body ? ` ${JSON.stringify(r.body()).replace(/"(username|password)":"[^"]*"/g, '"$1":…')}` : ''}`;
const pathFor = async (r: Route, accountId: string) => (r.target ? r.path.replace(':id', await r.target(env, accountId)) : r.path);

for (const route of routes) {
  test(`${routeName(route)}: needs ${route.needs.join(' + ')}`, async (t: ExecutionContext) => {
    t.true(principals.length === 8);
    for (const p of principals) {
      const allowed = route.needs.every((perm) => holds(p, perm));
      const res = await call(env, p.session, route.method, await pathFor(route, p.session.accountId), route.body?.());
      if (!allowed) {
        assertError(t, res, 403, 'FORBIDDEN', `${p.label}`);
        continue;
      }
      t.is(res.status, route.ok[0], `${p.label}: ${JSON.stringify(res.body).slice(0, 200)}`);
      if (route.ok[1]) assertSchema(t, route.ok[1], res.body);
    }
  });
}

test('a refused call changes nothing: a viewer cannot revoke a server, key or user of its account', async (t) => {
  const viewer = principals.find((p) => p.label === 'community viewer')!;
  const accountId = viewer.session.accountId;
  const serverId = await freshServer(env, accountId);
  const keyId = await freshKey(env, accountId);
  const userId = await freshUser(env, accountId);
  assertError(t, await call(env, viewer.session, 'delete', `/api/servers/${serverId}`), 403, 'FORBIDDEN');
  assertError(t, await call(env, viewer.session, 'delete', `/api/account/api-keys/${keyId}`), 403, 'FORBIDDEN');
  assertError(t, await call(env, viewer.session, 'delete', `/api/users/${userId}`), 403, 'FORBIDDEN');
  assertError(t, await call(env, viewer.session, 'patch', `/api/users/${viewer.session.userId}`, { role: 'owner' }), 403, 'FORBIDDEN');
  const { rows } = await env.deps.db.query<{ server: boolean; key: boolean; user: boolean; role: string }>(
    `SELECT (SELECT revoked_at IS NULL FROM servers WHERE id = $1) AS server, (SELECT revoked_at IS NULL FROM api_keys WHERE id = $2) AS key,
            (SELECT deleted_at IS NULL FROM users WHERE id = $3) AS user, (SELECT role FROM users WHERE id = $4) AS role`,
    [serverId, keyId, userId, viewer.session.userId],
  );
  t.deepEqual(rows[0], { server: true, key: true, user: true, role: 'viewer' });
});

for (const route of routes) {
  test(`${routeName(route)} without a session: 401`, async (t) => {
    const path = route.path.replace(':id', randomUUID());
    assertError(t, await call(env, undefined, route.method, path, route.body?.()), 401, 'UNAUTHORIZED', 'no credentials');
    assertError(t, await call(env, { token: 'not-a-jwt' }, route.method, path, route.body?.()), 401, 'UNAUTHORIZED', 'garbage bearer');
    let forged = env.request[route.method](path)
      .set('Cookie', 'auth-token=eyJhbGciOiJub25lIn0.e30.; csrf-token=x')
      .set('X-CSRF-Token', 'x');
    if (route.body) forged = forged.send(route.body() as object);
    const cookie = await forged;
    assertError(t, cookie, 401, 'UNAUTHORIZED', 'forged cookie');
  });
}
