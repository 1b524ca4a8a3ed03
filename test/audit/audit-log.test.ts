// GET /api/audit as the dashboard shows it: each target named as the service knows it now (a
// server's, user's, key's or bot's name; a ban's or queue entry's player, by the name given or else
// the one seen on the community's servers), never with another community's records; the worker's
// routine file syncs left out unless asked for (fileSyncs=true, or an action filter naming them),
// while a failed sync always shows.
import { randomUUID } from 'node:crypto';
import test from 'ava';
import { insertAudit } from '../../src/audit/audit.repo.ts';
import { drainSyncRequests } from '../../src/game-files/sync-job.ts';
import { registerServer } from '../../src/servers/server.ts';
import { setupOperator, userWithRole } from '../helpers/controller.ts';
import { api, envFor } from '../helpers/controller-http.ts';
import { assertError } from '../helpers/data-api.ts';
import { gameFilesDirFor } from '../helpers/game-files-dir.ts';
import { ingest } from '../helpers/seed.ts';

interface Entry {
  id: string;
  action: string;
  target: { type: string | null; id: string | null; name: string | null };
}

test("each target is named as the service knows it now, and only from the community's own records", async (t) => {
  const env = await envFor(t);
  const owner = await setupOperator(env, 'owner');
  const made = await api(t, env, owner, 'post', '/api/servers', { name: 'Old name' });
  const serverId = made.body.server.id as string;
  await api(t, env, owner, 'patch', `/api/servers/${serverId}`, { name: 'Chernarus #1' });
  await api(t, env, owner, 'post', '/api/users', { username: 'mod-mira', password: 'a long passphrase', role: 'moderator' });
  await api(t, env, owner, 'post', '/api/account/api-keys', { name: 'community website' });
  await api(t, env, owner, 'post', '/api/chat/bots', { name: 'Discord bot' });
  // A player seen on the community's server, banned and queued without a name of their own.
  const seen = '76561198000000301';
  await ingest(env, { serverId, token: made.body.ingestToken }, [
    { id: randomUUID(), type: 'player.connect', ts: env.clock.now(), platformId: seen, name: 'Leaderboard Larry' },
  ]).expect(200);
  await api(t, env, owner, 'post', '/api/bans', { platformId: seen });
  await api(t, env, owner, 'post', '/api/bans', { platformId: '76561198000000302', playerName: 'Named Ned' });
  await api(t, env, owner, 'post', '/api/priority-queue', { platformId: seen, durationDays: 3 });
  // Another community's server, named in an entry of this one (no route does that): not its to name.
  const foreign = await userWithRole(env, 'owner');
  const theirs = await registerServer(env.deps, foreign.accountId, { name: 'Their secret server' });
  await insertAudit(env.deps.db, {
    accountId: owner.accountId,
    at: new Date(env.clock.now()).toISOString(),
    actorType: 'system',
    actorId: null,
    actorName: 'test',
    action: 'server.probe',
    targetType: 'server',
    targetId: theirs.server.id,
    ip: null,
    details: {},
  });

  const res = await api(t, env, owner, 'get', '/api/audit?limit=100');
  const named = (res.body.entries as Entry[]).map((e) => [e.action, e.target.type, e.target.name]);
  t.deepEqual(named, [
    ['server.probe', 'server', null],
    ['queue.add', 'queue-entry', 'Leaderboard Larry'],
    ['ban.create', 'ban', 'Named Ned'],
    ['ban.create', 'ban', 'Leaderboard Larry'],
    ['chat.bot.create', 'chat-bot', 'Discord bot'],
    ['apikey.create', 'apikey', 'community website'],
    ['user.create', 'user', 'mod-mira'],
    ['server.update', 'server', 'Chernarus #1'],
    ['server.create', 'server', 'Chernarus #1'],
    ['auth.login', 'user', 'owner'],
    ['setup.admin', 'account', 'Operator'],
  ]);
});

test("the worker's routine file syncs only when asked for; a failed sync always; paging skips what is left out", async (t) => {
  const dir = await gameFilesDirFor(t, 'audit-syncs-');
  const env = await envFor(t, { GAME_FILES_DIR: dir });
  const owner = await setupOperator(env, 'owner');
  await api(t, env, owner, 'post', '/api/servers', { name: 'Chernarus #1', banFilePath: 'ban.txt' });
  await drainSyncRequests(env.deps);
  await api(t, env, owner, 'post', '/api/bans', { platformId: '76561198000000311' });
  t.like(await drainSyncRequests(env.deps), { failed: 0 });
  const syncs = await env.deps.db.query<{ n: number }>("SELECT count(*)::int AS n FROM audit_log WHERE action = 'files.sync'");
  t.true(syncs.rows[0]!.n >= 1, 'the worker wrote the file and said so');
  await insertAudit(env.deps.db, {
    accountId: owner.accountId,
    at: new Date(env.clock.now()).toISOString(),
    actorType: 'system',
    actorId: null,
    actorName: 'worker',
    action: 'files.sync-failed',
    targetType: 'server',
    targetId: null,
    ip: null,
    details: { file: 'bans' },
  });

  const actions = async (query: string) => {
    const res = await api(t, env, owner, 'get', `/api/audit?limit=100${query}`);
    t.is(res.status, 200, query);
    return (res.body.entries as Entry[]).map((e) => e.action);
  };
  const hidden = await actions('');
  t.false(hidden.includes('files.sync'), 'left out unless asked');
  t.true(hidden.includes('files.sync-failed'), 'a failure is no routine');
  t.deepEqual(hidden.slice(0, 3), ['files.sync-failed', 'ban.create', 'server.create']);
  const all = await actions('&fileSyncs=true');
  t.is(all.filter((a) => a === 'files.sync').length, syncs.rows[0]!.n);
  t.deepEqual(
    all.filter((a) => a !== 'files.sync'),
    hidden,
  );
  t.deepEqual(await actions('&action=files.sync'), Array(syncs.rows[0]!.n).fill('files.sync'), 'a filter naming them asks for them');
  t.deepEqual((await actions('&action=files')).sort(), [...Array(syncs.rows[0]!.n).fill('files.sync'), 'files.sync-failed'].sort());
  t.deepEqual(await actions('&fileSyncs=false'), hidden);

  // Page by page, the left-out entries never make a page short nor end the paging early.
  const seen: string[] = [];
  let before: string | null = null;
  do {
    const page = await api(t, env, owner, 'get', `/api/audit?limit=1${before ? `&before=${before}` : ''}`);
    t.is(page.body.entries.length, 1);
    seen.push(page.body.entries[0].action);
    before = page.body.nextCursor;
  } while (before);
  t.deepEqual(seen, hidden);
  assertError(t, await api(t, env, owner, 'get', '/api/audit?fileSyncs=maybe'), 400, 'BAD_REQUEST');
});
