// Tenancy: a signed-in user acts only on its own account. Ids of another account answer 404
// (as if unknown, never 403) and change nothing; lists show only the own account's records.
// Also true of the network operator's owner, who manages communities but not their records.
import { randomUUID } from 'node:crypto';
import test from 'ava';
import type { ExecutionContext } from 'ava';
import { password, setupOperator, signIn } from '../helpers/controller.ts';
import type { Session } from '../helpers/controller.ts';
import { api, controllerEnv } from '../helpers/controller-http.ts';
import type { Method } from '../helpers/controller-http.ts';
import { assertError } from '../helpers/data-api.ts';
import type { TestEnv } from '../helpers/env.ts';
import { makeGameFilesDir } from '../helpers/game-files-dir.ts';
import { assertSchema, dataGet, ev, ingest } from '../helpers/seed.ts';

let env: TestEnv;
let operator: Session;
let removeDir: () => Promise<void>;
test.before(async () => {
  const files = await makeGameFilesDir('tenancy-');
  removeDir = files.remove;
  env = await controllerEnv({ GAME_FILES_DIR: files.dir });
  operator = await setupOperator(env);
});
test.after.always(async () => {
  await env?.close();
  await removeDir?.();
});

interface Community {
  owner: Session;
  serverId: string;
  serverName: string;
  banFilePath: string;
  token: string;
  keyId: string;
  key: string;
  /** A second user (admin) of the account. */
  userId: string;
  username: string;
}

/** A community built through the API: owner, one server, one API key, one more user. */
async function community(t: ExecutionContext): Promise<Community> {
  const tag = randomUUID().slice(0, 8);
  const created = await api(t, env, operator, 'post', '/api/accounts', {
    accountName: `Community ${tag}`,
    username: `owner-${tag}`,
    password,
  });
  t.is(created.status, 201);
  const owner = await signIn(env, `owner-${tag}`);
  const server = await api(t, env, owner, 'post', '/api/servers', { name: `server ${tag}` });
  t.is(server.status, 201);
  // A file on the service's host, as the operator's CLI gives one to a community's server.
  await env.deps.db.query('UPDATE servers SET ban_file_path = $2 WHERE id = $1', [server.body.server.id, `${tag}/ban.txt`]);
  const key = await api(t, env, owner, 'post', '/api/account/api-keys', { name: `key ${tag}` });
  t.is(key.status, 201);
  const user = await api(t, env, owner, 'post', '/api/users', { username: `admin-${tag}`, password, role: 'admin' });
  t.is(user.status, 201);
  return {
    owner,
    serverId: server.body.server.id,
    serverName: `server ${tag}`,
    banFilePath: `${tag}/ban.txt`,
    token: server.body.ingestToken,
    keyId: key.body.id,
    key: key.body.key,
    userId: user.body.id,
    username: `admin-${tag}`,
  };
}

/** The other community's records are exactly as they were, and still work. */
async function assertIntact(t: ExecutionContext, c: Community): Promise<void> {
  const server = await api(t, env, c.owner, 'get', `/api/servers/${c.serverId}`);
  t.is(server.status, 200);
  assertSchema(t, 'managed-server.json', server.body);
  t.like(server.body, { id: c.serverId, name: c.serverName, banFilePath: c.banFilePath });
  t.is(
    (await ingest(env, { serverId: c.serverId, token: c.token }, [ev.status(env.clock.now() - 1000)])).status,
    200,
    'the ingest token still works',
  );
  const status = await dataGet(env, c, `/servers/${c.serverId}`);
  t.is(status.status, 200, 'the API key still works');
  t.is(status.body.name, c.serverName);
  const keys = await api(t, env, c.owner, 'get', '/api/account/api-keys');
  t.deepEqual(
    (keys.body.keys as { id: string; revokedAt: string | null }[]).map((k) => [k.id, k.revokedAt]),
    [[c.keyId, null]],
  );
  const users = await api(t, env, c.owner, 'get', '/api/users');
  t.like(
    (users.body.users as { id: string; role: string }[]).find((u) => u.id === c.userId),
    { role: 'admin' },
  );
  await t.notThrowsAsync(signIn(env, c.username), 'the user still signs in with the same password');
}

for (const actor of ['owner of another community', "the network operator's owner"] as const) {
  test(`${actor}: ids of another account answer 404 and change nothing`, async (t) => {
    const victim = await community(t);
    const attacker = actor === "the network operator's owner" ? operator : (await community(t)).owner;
    const tries: [Method, string, unknown?][] = [
      ['get', `/api/servers/${victim.serverId}`],
      ['get', `/api/servers/${victim.serverId.toUpperCase()}`],
      ['patch', `/api/servers/${victim.serverId}`, { name: 'hijacked', banFilePath: null }],
      ['patch', `/api/servers/${victim.serverId}`, { banFilePath: 'stolen/ban.txt' }],
      ['post', `/api/servers/${victim.serverId}/ingest-token`],
      ['delete', `/api/servers/${victim.serverId}`],
      ['patch', `/api/users/${victim.userId}`, { role: 'viewer' }],
      ['patch', `/api/users/${victim.userId}`, { password: 'another password 123' }],
      ['patch', `/api/users/${victim.owner.userId}`, { role: 'viewer' }],
      ['delete', `/api/users/${victim.userId}`],
      ['delete', `/api/users/${victim.owner.userId}`],
      ['delete', `/api/account/api-keys/${victim.keyId}`],
    ];
    const before = (await env.deps.db.query<{ id: number }>('SELECT coalesce(max(id), 0) AS id FROM audit_log')).rows[0]!.id;
    for (const [method, path, body] of tries) {
      assertError(t, await api(t, env, attacker, method, path, body), 404, 'NOT_FOUND', `${method} ${path}`);
    }
    // The refused attempts wrote no audit entry about the victim's account or records.
    const { rows } = await env.deps.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM audit_log WHERE id > $4 AND actor_id = $1 AND (account_id = $2 OR target_id = ANY($3))`,
      [attacker.userId, victim.owner.accountId, [victim.serverId, victim.userId, victim.owner.userId, victim.keyId], before],
    );
    t.is(rows[0]!.n, 0);
    await assertIntact(t, victim);
    // The victim's owner session was not ended by the attempts on it.
    t.is((await api(t, env, victim.owner, 'get', '/api/users')).status, 200);
  });
}

// Serial: it compares the operator's audit log with the database while no other test writes to it.
test.serial('lists show only the records of the own account', async (t) => {
  const [a, b] = [await community(t), await community(t)];
  // Some activity in both, so the audit logs are not trivially empty.
  for (const c of [a, b]) {
    t.is((await api(t, env, c.owner, 'patch', `/api/servers/${c.serverId}`, { name: 'renamed' })).status, 200);
  }
  const idsOf = async (accountId: string) => {
    const { rows } = await env.deps.db.query<{ servers: string[]; users: string[]; keys: string[]; audit: string[] }>(
      `SELECT array(SELECT id::text FROM servers WHERE account_id = $1 AND revoked_at IS NULL ORDER BY id) AS servers,
              array(SELECT id::text FROM users WHERE account_id = $1 AND deleted_at IS NULL ORDER BY id) AS users,
              array(SELECT id::text FROM api_keys WHERE account_id = $1 ORDER BY id) AS keys,
              array(SELECT id::text FROM audit_log WHERE account_id = $1 ORDER BY id) AS audit`,
      [accountId],
    );
    return rows[0]!;
  };
  for (const [me, other] of [
    [a, b],
    [b, a],
    [{ owner: operator }, a],
  ] as const) {
    const mine = await idsOf(me.owner.accountId);
    const theirs = await idsOf(other.owner.accountId);
    const servers = await api(t, env, me.owner, 'get', '/api/servers');
    assertSchema(t, 'managed-server-list.json', servers.body);
    const users = await api(t, env, me.owner, 'get', '/api/users');
    assertSchema(t, 'user-list.json', users.body);
    const keys = await api(t, env, me.owner, 'get', '/api/account/api-keys');
    assertSchema(t, 'api-key-list.json', keys.body);
    const audit = await api(t, env, me.owner, 'get', '/api/audit?limit=200');
    assertSchema(t, 'audit-page.json', audit.body);
    t.is(audit.body.nextCursor, null);
    const listed = {
      servers: (servers.body.servers as { id: string }[]).map((s) => s.id).sort(),
      users: (users.body.users as { id: string; accountId: string }[]).map((u) => u.id).sort(),
      keys: (keys.body.keys as { id: string }[]).map((k) => k.id).sort(),
      audit: (audit.body.entries as { id: string }[]).map((e) => e.id).sort(),
    };
    const sorted = (ids: string[]) => [...ids].sort();
    t.deepEqual(listed, { servers: sorted(mine.servers), users: sorted(mine.users), keys: sorted(mine.keys), audit: sorted(mine.audit) });
    t.true((users.body.users as { accountId: string }[]).every((u) => u.accountId === me.owner.accountId));
    for (const kind of ['servers', 'users', 'keys', 'audit'] as const) {
      t.deepEqual(
        listed[kind].filter((id) => theirs[kind].includes(id)),
        [],
        `no ${kind} of the other account`,
      );
    }
  }
});
