// Setting a server's file paths (docs/game-files.md, "Files on the service's host"): only when the operator
// set GAME_FILES_DIR, only by holders of accounts.manage, only to a regular file (or none yet)
// inside that folder through real folders, never to a file another live server uses; stored in
// one normal form; and a new path (or a new server) asks for a sync of its file.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, symlink, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import test from 'ava';
import type { ExecutionContext } from 'ava';
import { password, setupOperator, signIn, userWithRole } from '../helpers/controller.ts';
import type { Session } from '../helpers/controller.ts';
import { api, controllerEnv, envFor } from '../helpers/controller-http.ts';
import { assertError } from '../helpers/data-api.ts';
import type { TestEnv } from '../helpers/env.ts';
import { gameFilesDirFor, makeGameFilesDir } from '../helpers/game-files-dir.ts';

let env: TestEnv;
let operator: Session;
let dir: string;
let removeDir: () => Promise<void>;
test.before(async () => {
  ({ dir, remove: removeDir } = await makeGameFilesDir('server-file-paths-'));
  env = await controllerEnv({ GAME_FILES_DIR: dir });
  operator = await setupOperator(env);
});
test.after.always(async () => {
  await env?.close();
  await removeDir?.();
});

const tag = () => randomUUID().slice(0, 8);

async function community(t: ExecutionContext): Promise<Session> {
  const name = `owner-${tag()}`;
  t.is((await api(t, env, operator, 'post', '/api/accounts', { accountName: `Community ${name}`, username: name, password })).status, 201);
  return signIn(env, name);
}

async function newServer(t: ExecutionContext, s: Session, body: Record<string, unknown> = { name: `server ${tag()}` }) {
  const res = await api(t, env, s, 'post', '/api/servers', body);
  t.is(res.status, 201, JSON.stringify(res.body));
  return res.body.server as { id: string; banFilePath: string | null; priorityFilePath: string | null };
}

/** A folder of its own inside GAME_FILES_DIR, relative. */
async function folder(): Promise<string> {
  const name = `srv-${tag()}`;
  await mkdir(join(dir, name));
  return name;
}

const storedPaths = async (serverId: string) =>
  (
    await env.deps.db.query<{ ban: string | null; priority: string | null }>(
      'SELECT ban_file_path AS ban, priority_file_path AS priority FROM servers WHERE id = $1',
      [serverId],
    )
  ).rows[0];

test('without GAME_FILES_DIR a path is a 400 saying the agent keeps the files; null and a name are fine', async (t) => {
  const off = await envFor(t);
  const owner = await setupOperator(off);
  const res = await api(t, off, owner, 'post', '/api/servers', { name: 'alpha', banFilePath: 'ban.txt' });
  assertError(t, res, 400, 'BAD_REQUEST');
  t.regex(res.body.message, /files on the service's host are off .*GAME_FILES_DIR.*agent.*--files/);
  const server = (await api(t, off, owner, 'post', '/api/servers', { name: 'alpha', banFilePath: null })).body.server as { id: string };
  t.truthy(server);
  assertError(
    t,
    await api(t, off, owner, 'patch', `/api/servers/${server.id}`, { priorityFilePath: '/tmp/priority.txt' }),
    400,
    'BAD_REQUEST',
  );
  t.like((await api(t, off, owner, 'patch', `/api/servers/${server.id}`, { name: 'beta', banFilePath: null })).body, {
    name: 'beta',
    banFilePath: null,
  });
});

test("only accounts.manage names a path: the operator's owner may; its admin and every community's owner and admin get a 403, and still rename", async (t) => {
  const f = await folder();
  const mine = await newServer(t, operator, { name: 'operator server', banFilePath: `${f}/ban.txt` });
  t.is(mine.banFilePath, `${f}/ban.txt`);
  const operatorAdmin = await userWithRole(env, 'admin', operator.accountId);
  const owner = await community(t);
  const admin = await userWithRole(env, 'admin', owner.accountId);
  const theirs = await newServer(t, owner);
  for (const [who, s, serverId] of [
    ["the operator's admin", operatorAdmin, mine.id],
    ["a community's owner", owner, theirs.id],
    ["a community's admin", admin, theirs.id],
  ] as const) {
    const created = await api(t, env, s, 'post', '/api/servers', { name: 'sneaky', banFilePath: `${f}/${tag()}.txt` });
    assertError(t, created, 403, 'FORBIDDEN', who);
    t.regex(created.body.message, /accounts\.manage.*agent/);
    assertError(
      t,
      await api(t, env, s, 'patch', `/api/servers/${serverId}`, { priorityFilePath: `${f}/${tag()}.txt` }),
      403,
      'FORBIDDEN',
      who,
    );
    assertError(
      t,
      await api(t, env, s, 'patch', `/api/servers/${serverId}`, { name: 'renamed', banFilePath: `${f}/ban.txt` }),
      403,
      'FORBIDDEN',
      `${who}: even restating it`,
    );
    const renamed = await api(t, env, s, 'patch', `/api/servers/${serverId}`, { name: `renamed by ${who}` });
    t.is(renamed.status, 200, who);
  }
  t.deepEqual(await storedPaths(mine.id), { ban: `${f}/ban.txt`, priority: null });
  t.is((await env.deps.db.query("SELECT 1 FROM servers WHERE name = 'sneaky'")).rowCount, 0);
});

test('clearing a path needs only servers.manage: it only stops the service touching the file', async (t) => {
  const f = await folder();
  const mine = await newServer(t, operator, {
    name: 'operator server',
    banFilePath: `${f}/ban.txt`,
    priorityFilePath: `${f}/priority.txt`,
  });
  const operatorAdmin = await userWithRole(env, 'admin', operator.accountId);
  t.like((await api(t, env, operatorAdmin, 'patch', `/api/servers/${mine.id}`, { banFilePath: null })).body, {
    banFilePath: null,
    priorityFilePath: `${f}/priority.txt`,
  });
  // A community server holding a path from before the rule: its own admin clears it.
  const owner = await community(t);
  const theirs = await newServer(t, owner);
  await env.deps.db.query('UPDATE servers SET ban_file_path = $2 WHERE id = $1', [theirs.id, `${await folder()}/ban.txt`]);
  const admin = await userWithRole(env, 'admin', owner.accountId);
  t.like((await api(t, env, admin, 'patch', `/api/servers/${theirs.id}`, { banFilePath: null })).body, { banFilePath: null });
  // A viewer (no servers.manage) clears nothing.
  const viewer = await userWithRole(env, 'viewer', operator.accountId);
  assertError(t, await api(t, env, viewer, 'patch', `/api/servers/${mine.id}`, { priorityFilePath: null }), 403, 'FORBIDDEN');
  t.deepEqual(await storedPaths(mine.id), { ban: null, priority: `${f}/priority.txt` });
});

test('a path is stored in its normal form, relative to GAME_FILES_DIR', async (t) => {
  const f = await folder();
  const server = await newServer(t, operator, {
    name: 'normal',
    banFilePath: join(dir, f, 'ban.txt'),
    priorityFilePath: `./${f}//./priority.txt`,
  });
  t.like(server, { banFilePath: `${f}/ban.txt`, priorityFilePath: `${f}/priority.txt` });
  t.deepEqual(await storedPaths(server.id), { ban: `${f}/ban.txt`, priority: `${f}/priority.txt` });
});

test('refused on input with a 400 naming why, and nothing stored: every form, and every kind of place that is no regular file', async (t) => {
  const outside = await gameFilesDirFor(t, 'outside-');
  await writeFile(join(outside, 'ban.txt'), '76561198000000001\r\n');
  const f = await folder();
  await writeFile(join(dir, f, 'ban.txt'), '');
  await symlink(join(outside, 'ban.txt'), join(dir, f, 'link-out.txt'));
  await symlink(join(dir, f, 'ban.txt'), join(dir, f, 'link-in.txt'));
  await symlink(outside, join(dir, f, 'folder-out'));
  await symlink(join(dir, f), join(dir, f, 'folder-in'));
  await symlink('/dev/zero', join(dir, f, 'zero.txt'));
  await mkdir(join(dir, f, 'a-folder.txt'));
  execFileSync('mkfifo', [join(dir, f, 'fifo.txt')]);
  await writeFile(join(dir, f, 'big.txt'), '');
  await truncate(join(dir, f, 'big.txt'), 8 * 1024 * 1024 + 1);
  const cases: [string, unknown, RegExp][] = [
    ['absolute outside', join(outside, 'ban.txt'), /outside GAME_FILES_DIR/],
    ['the dashboard', '/work/main/web/dist/index.html', /outside GAME_FILES_DIR/],
    ['a parent step', `${f}/../../ban.txt`, /".."/],
    ['percent escapes', '%2e%2e/%2e%2e/etc/passwd', /may hold only/],
    ['full-width dots', '\uff0e\uff0e/ban.txt', /may hold only/],
    ['a Windows drive', 'C:\\DayZ\\ban.txt', /backslash/],
    ['a UNC path', '//server/share/ban.txt', /UNC/],
    ['a control character', 'ban\u0001.txt', /control character/],
    ['a trailing slash', `${f}/`, /names a folder/],
    ['a symlink leading out', `${f}/link-out.txt`, /is a symlink, not a regular file/],
    ['a symlink staying in', `${f}/link-in.txt`, /is a symlink, not a regular file/],
    ['a symlinked folder leading out', `${f}/folder-out/ban.txt`, /folder-out is a symlink, not a folder/],
    ['a symlinked folder staying in', `${f}/folder-in/ban.txt`, /folder-in is a symlink, not a folder/],
    ['a device through a symlink', `${f}/zero.txt`, /is a symlink/],
    ['a folder', `${f}/a-folder.txt`, /is a folder, not a regular file/],
    ['a FIFO', `${f}/fifo.txt`, /is a FIFO, not a regular file/],
    ['a file over 8 MiB', `${f}/big.txt`, /larger than 8 MiB/],
    ['a folder that does not exist', `${f}/missing/ban.txt`, /does not exist in GAME_FILES_DIR/],
    ['a file taken for a folder', `${f}/ban.txt/ban.txt`, /is not a regular file, not a folder|not a folder/],
  ];
  const server = await newServer(t, operator, { name: 'target' });
  for (const [label, path, reason] of cases) {
    for (const field of ['banFilePath', 'priorityFilePath']) {
      const created = await api(t, env, operator, 'post', '/api/servers', { name: `refused ${label}`, [field]: path });
      assertError(t, created, 400, 'BAD_REQUEST', `${label} as ${field}`);
      t.regex(created.body.message, reason, label);
      t.true(created.body.message.startsWith(`${field}: `), created.body.message);
      assertError(t, await api(t, env, operator, 'patch', `/api/servers/${server.id}`, { [field]: path }), 400, 'BAD_REQUEST', label);
    }
  }
  t.is((await env.deps.db.query("SELECT 1 FROM servers WHERE name LIKE 'refused %'")).rowCount, 0);
  t.deepEqual(await storedPaths(server.id), { ban: null, priority: null });
  t.is(await readFile(join(outside, 'ban.txt'), 'utf8'), '76561198000000001\r\n');
  if (process.getuid?.() === 0) {
    execFileSync('mknod', [join(dir, f, 'device.txt'), 'c', '1', '5']);
    assertError(
      t,
      await api(t, env, operator, 'patch', `/api/servers/${server.id}`, { banFilePath: `${f}/device.txt` }),
      400,
      'BAD_REQUEST',
      'a device node',
    );
  }
});

test("one file, one live server: a file another server uses (either kind, any spelling or case) is a 409; a server's two files differ", async (t) => {
  const f = await folder();
  const first = await newServer(t, operator, { name: 'first', banFilePath: `${f}/ban.txt`, priorityFilePath: `${f}/priority.txt` });
  const second = await newServer(t, operator, { name: 'second' });
  for (const [field, path] of [
    ['banFilePath', `${f}/ban.txt`],
    ['priorityFilePath', `${f}/ban.txt`],
    ['banFilePath', `${f}/priority.txt`],
    ['banFilePath', join(dir, f, 'ban.txt')],
    ['priorityFilePath', `./${f}/BAN.txt`],
  ] as const) {
    const res = await api(t, env, operator, 'patch', `/api/servers/${second.id}`, { [field]: path });
    assertError(t, res, 409, 'CONFLICT', `${field} ${path}`);
    t.regex(res.body.message, /another server already uses/);
    assertError(t, await api(t, env, operator, 'post', '/api/servers', { name: 'third', [field]: path }), 409, 'CONFLICT');
  }
  assertError(
    t,
    await api(t, env, operator, 'patch', `/api/servers/${second.id}`, { banFilePath: `${f}/own.txt`, priorityFilePath: `${f}/own.txt` }),
    400,
    'BAD_REQUEST',
  );
  assertError(
    t,
    await api(t, env, operator, 'patch', `/api/servers/${first.id}`, { priorityFilePath: `${f}/ban.txt` }),
    400,
    'BAD_REQUEST',
    'its own ban file as its priority file',
  );
  // A server restates its own path; a revoked server's file is free again.
  t.is((await api(t, env, operator, 'patch', `/api/servers/${first.id}`, { banFilePath: `${f}/ban.txt` })).status, 200);
  t.is((await api(t, env, operator, 'delete', `/api/servers/${first.id}`)).status, 204);
  t.like((await api(t, env, operator, 'patch', `/api/servers/${second.id}`, { banFilePath: `${f}/ban.txt` })).body, {
    banFilePath: `${f}/ban.txt`,
  });
});

test('two changes naming one file at once: exactly one wins, the other is a 409', async (t) => {
  const f = await folder();
  const servers = await Promise.all([1, 2, 3].map((i) => newServer(t, operator, { name: `racer ${i}` })));
  for (let round = 0; round < 5; round++) {
    const path = `${f}/race-${round}.txt`;
    const answers = await Promise.all(
      servers.map((s, i) =>
        api(t, env, operator, 'patch', `/api/servers/${s.id}`, i === 2 ? { priorityFilePath: path } : { banFilePath: path }),
      ),
    );
    t.deepEqual(answers.map((r) => r.status).sort(), [200, 409, 409], `round ${round}`);
  }
  const { rows } = await env.deps.db.query<{ path: string; n: number }>(
    `SELECT p.path, count(*)::int AS n FROM servers s CROSS JOIN LATERAL (VALUES (s.ban_file_path), (s.priority_file_path)) AS p(path)
     WHERE s.revoked_at IS NULL AND p.path LIKE $1 GROUP BY p.path`,
    [`${f}/race-%`],
  );
  t.true(rows.length > 0 && rows.every((r) => r.n === 1), JSON.stringify(rows));
  // The database's own check, for a writer that skips the service's: another server's file is refused.
  const taken = rows[0]!.path;
  const bystander = await newServer(t, operator, { name: 'bystander' });
  await t.throwsAsync(env.deps.db.query('UPDATE servers SET priority_file_path = upper($2) WHERE id = $1', [bystander.id, taken]), {
    message: /another live server uses that file/,
  });
});

test('a new file path or a new server asks for a sync of its files', async (t) => {
  const f = await folder();
  const pending = async (serverId: string) =>
    (
      await env.deps.db.query<{ kind: string }>('SELECT kind FROM file_sync_requests WHERE server_id = $1 ORDER BY kind', [serverId])
    ).rows.map((r) => r.kind);
  const server = await newServer(t, operator, { name: 'synced' });
  t.deepEqual(await pending(server.id), ['bans', 'priority'], 'a new server asks for both files');
  await env.deps.db.query('DELETE FROM file_sync_requests WHERE server_id = $1', [server.id]);
  t.is((await api(t, env, operator, 'patch', `/api/servers/${server.id}`, { name: 'renamed' })).status, 200);
  t.deepEqual(await pending(server.id), [], 'a name alone asks for nothing');
  t.is((await api(t, env, operator, 'patch', `/api/servers/${server.id}`, { priorityFilePath: `${f}/priority.txt` })).status, 200);
  t.deepEqual(await pending(server.id), ['priority']);
  t.is((await api(t, env, operator, 'patch', `/api/servers/${server.id}`, { banFilePath: `${f}/ban.txt` })).status, 200);
  t.deepEqual(await pending(server.id), ['bans', 'priority']);
  const [audit] = (
    await env.deps.db.query("SELECT details FROM audit_log WHERE target_id = $1 AND action = 'server.update' ORDER BY id DESC LIMIT 1", [
      server.id,
    ])
  ).rows;
  t.deepEqual(audit.details, { changed: ['banFilePath'], banFilePath: `${f}/ban.txt` }, 'the audit names the path set');
});
