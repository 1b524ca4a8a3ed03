// Private notes and the watch flag: who may write them, their audit entries (never the note's
// text), bad bodies and ids, the cap of notes a player, the online lists' `watched` mark, tenancy
// (another account never sees or changes them) and that no public or partner answer carries them.
import test from 'ava';
import type { ExecutionContext } from 'ava';
import type { Response } from 'supertest';
import { maxNotesPerPlayer } from '../../src/players/notes.ts';
import { api, browserCall, call, envFor } from '../helpers/controller-http.ts';
import { assertError } from '../helpers/data-api.ts';
import { setupOperator } from '../helpers/controller.ts';
import type { Session } from '../helpers/controller.ts';
import type { TestEnv } from '../helpers/env.ts';
import { dataGet } from '../helpers/seed.ts';
import { decide, feedSettled } from '../helpers/trust.ts';
import { community, events, feed, freshSteam64, profileOf } from './helpers.ts';

const secret = 'NOTE-TEXT-never-public';

async function auditOf(
  env: TestEnv,
  accountId: string,
): Promise<{ action: string; target_id: string; details: Record<string, unknown> }[]> {
  const { rows } = await env.deps.db.query(
    "SELECT action, target_id, details FROM audit_log WHERE account_id = $1 AND action LIKE 'player.%' ORDER BY id",
    [accountId],
  );
  return rows;
}

const note = (t: ExecutionContext, env: TestEnv, s: Session, id: string, body: unknown) =>
  api(t, env, s, 'post', `/api/players/${encodeURIComponent(id)}/notes`, body);

test('notes: add, list newest first, remove; audited by id and length only; moderators write, viewers read', async (t) => {
  const env = await envFor(t);
  const c = await community(env, 1);
  const p = freshSteam64();
  await feed(t, env, c.servers[0]!, [events.presence('player.connect', env.clock.now() - 1000, p, 'P')]);

  const first = await note(t, env, c.moderator, p, { body: secret });
  t.is(first.status, 201);
  t.like(first.body, { platformId: p, body: secret, createdBy: { id: c.moderator.userId, name: c.moderator.username } });
  env.clock.advance(1000);
  const second = await note(t, env, c.owner, p, { body: '  second, with spaces kept  ' });
  t.is(second.body.body, '  second, with spaces kept  ');

  const list = await api(t, env, c.viewer, 'get', `/api/players/${p}/notes`);
  t.deepEqual(
    list.body.notes.map((n: { id: string }) => n.id),
    [second.body.id, first.body.id],
  );
  t.deepEqual((await profileOf(t, env, c.viewer, p)).notes, list.body.notes, 'the profile lists them too');

  assertError(t, await note(t, env, c.viewer, p, { body: 'no' }), 403, 'FORBIDDEN', 'a viewer adds none');
  assertError(t, await api(t, env, c.viewer, 'delete', `/api/players/${p}/notes/${first.body.id}`), 403, 'FORBIDDEN');
  t.is((await api(t, env, c.moderator, 'delete', `/api/players/${p}/notes/${first.body.id}`)).status, 204);
  assertError(t, await api(t, env, c.moderator, 'delete', `/api/players/${p}/notes/${first.body.id}`), 404, 'NOT_FOUND', 'removed before');
  t.deepEqual(
    (await api(t, env, c.viewer, 'get', `/api/players/${p}/notes`)).body.notes.map((n: { id: string }) => n.id),
    [second.body.id],
  );

  const audit = await auditOf(env, c.owner.accountId);
  t.deepEqual(
    audit.map((a) => [a.action, a.target_id]),
    [
      ['player.note.add', p],
      ['player.note.add', p],
      ['player.note.remove', p],
    ],
  );
  t.deepEqual(audit[0]!.details, { noteId: first.body.id, length: secret.length });
  t.deepEqual(audit[2]!.details, { noteId: first.body.id });
  t.false(JSON.stringify(audit).includes(secret), 'the audit log never holds the text');
  const auditPage = await api(t, env, c.owner, 'get', '/api/audit?action=player');
  t.is(auditPage.body.entries.length, 3);
});

test('notes: bad bodies, ids and identifiers are 4xx; a cookie session needs its CSRF token; past the cap 409', async (t) => {
  const env = await envFor(t);
  const c = await community(env, 1);
  const p = freshSteam64();
  await feed(t, env, c.servers[0]!, [events.presence('player.connect', env.clock.now() - 1000, p, 'P')]);
  for (const [body, what] of [
    [{}, 'no body field'],
    [{ body: '' }, 'empty'],
    [{ body: ' \t\n ' }, 'only spaces'],
    [{ body: 'x'.repeat(2001) }, 'too long'],
    [{ body: 42 }, 'not text'],
    [{ body: 'ok', pinned: true }, 'unknown field'],
  ] as const) {
    assertError(t, await note(t, env, c.moderator, p, body), 400, 'BAD_REQUEST', what);
  }
  t.is((await note(t, env, c.moderator, p, { body: 'x'.repeat(2000) })).status, 201, '2,000 characters fit');
  const text = await call(env, c.moderator, 'post', `/api/players/${p}/notes`).set('Content-Type', 'text/plain').send('hello');
  assertError(t, text, 415, 'UNSUPPORTED_MEDIA_TYPE');
  assertError(t, await note(t, env, c.moderator, 'not-an-id', { body: 'x' }), 400, 'BAD_REQUEST', 'malformed identifier');
  assertError(t, await note(t, env, c.moderator, freshSteam64(), { body: 'x' }), 404, 'NOT_FOUND', 'unknown player');
  assertError(t, await api(t, env, c.moderator, 'delete', `/api/players/${p}/notes/not-a-uuid`), 404, 'NOT_FOUND');
  assertError(
    t,
    await api(t, env, c.moderator, 'delete', `/api/players/${p}/notes/00000000-0000-4000-8000-000000000000`),
    404,
    'NOT_FOUND',
  );
  const cookieWithoutCsrf = await env.request.post(`/api/players/${p}/notes`).set('Cookie', c.moderator.cookie).send({ body: 'x' });
  assertError(t, cookieWithoutCsrf, 403, 'csrf-mismatch');
  t.is((await browserCall(env, c.moderator, 'post', `/api/players/${p}/notes`, { body: 'from the dashboard' })).status, 201);

  // A note of another player is not this player's to remove.
  const other = freshSteam64();
  await feed(t, env, c.servers[0]!, [events.presence('player.connect', env.clock.now() - 1000, other, 'O')]);
  const theirs = await note(t, env, c.moderator, other, { body: 'about the other' });
  assertError(t, await api(t, env, c.moderator, 'delete', `/api/players/${p}/notes/${theirs.body.id}`), 404, 'NOT_FOUND');

  await env.deps.db.query(
    `INSERT INTO player_notes (account_id, platform_id, body, created_at)
     SELECT $1, $2, 'filler ' || g, now() FROM generate_series(1, $3) AS g`,
    [c.owner.accountId, p, maxNotesPerPlayer - 2],
  );
  const full = await note(t, env, c.moderator, p, { body: 'one too many' });
  assertError(t, full, 409, 'CONFLICT');
  const { rows } = await env.deps.db.query('SELECT count(*)::int AS n FROM player_notes WHERE platform_id = $1', [p]);
  t.is(rows[0].n, maxNotesPerPlayer);
});

test('watch: set and cleared once each in the audit; the online list marks watched players, the Data API never', async (t) => {
  const env = await envFor(t);
  const c = await community(env, 1);
  const s = c.servers[0]!;
  const [a, b] = [freshSteam64(), freshSteam64()];
  const now = env.clock.now();
  await feed(t, env, s, [events.presence('player.heartbeat', now - 2000, a, 'A'), events.presence('player.heartbeat', now - 1000, b, 'B')]);
  const online = async () =>
    Object.fromEntries(
      (await api(t, env, c.viewer, 'get', `/api/servers/${s.id}/players`)).body.players.map(
        (p: { platformId: string; watched: boolean }) => [p.platformId, p.watched],
      ),
    );
  t.deepEqual(await online(), { [a]: false, [b]: false });

  assertError(t, await api(t, env, c.viewer, 'post', `/api/players/${a}/watch`), 403, 'FORBIDDEN');
  const set = await api(t, env, c.moderator, 'post', `/api/players/${a}/watch`);
  t.like(set.body, { platformId: a, watched: true, watchedAt: new Date(now).toISOString(), watchedBy: { id: c.moderator.userId } });
  env.clock.advance(5000);
  const again = await api(t, env, c.owner, 'post', `/api/players/${a}/watch`);
  t.deepEqual(again.body, set.body, 'setting it again keeps who set it and when');
  t.deepEqual(await online(), { [a]: true, [b]: false });
  t.true((await profileOf(t, env, c.viewer, a)).watch.watched);

  const key = (await call(env, c.owner, 'post', '/api/account/api-keys', { name: 'site' })).body.key as string;
  const data = await dataGet(env, { key }, `/servers/${s.id}/players`);
  t.is(data.status, 200);
  t.false(JSON.stringify(data.body).includes('watched'), 'the Data API shows no watch flag');

  const cleared = await api(t, env, c.moderator, 'delete', `/api/players/${a}/watch`);
  t.deepEqual(cleared.body, { platformId: a, watched: false, watchedAt: null, watchedBy: null });
  t.is((await api(t, env, c.moderator, 'delete', `/api/players/${a}/watch`)).status, 200, 'clearing again changes nothing');
  t.deepEqual(await online(), { [a]: false, [b]: false });
  t.deepEqual(
    (await auditOf(env, c.owner.accountId)).map((e) => [e.action, e.target_id]),
    [
      ['player.watch', a],
      ['player.unwatch', a],
    ],
  );
  assertError(t, await api(t, env, c.moderator, 'post', `/api/players/${freshSteam64()}/watch`), 404, 'NOT_FOUND');
  assertError(t, await api(t, env, c.moderator, 'post', '/api/players/bogus/watch'), 400, 'BAD_REQUEST');
});

test("tenancy: another account never sees, lists or changes this account's notes, watch flags, bans or names", async (t) => {
  const env = await envFor(t);
  const ours = await community(env, 1);
  const theirs = await community(env, 1);
  const p = freshSteam64();
  await feed(t, env, ours.servers[0]!, [events.presence('player.heartbeat', env.clock.now() - 1000, p, 'OurName')]);
  const ourNote = await note(t, env, ours.moderator, p, { body: secret });
  t.is((await api(t, env, ours.moderator, 'post', `/api/players/${p}/watch`)).status, 200);
  t.is((await call(env, ours.moderator, 'post', '/api/bans', { platformId: p, reason: 'ours' })).status, 201);

  // The player is known to the network (seen on our server): they answer, without any of our records.
  const seen = await profileOf(t, env, theirs.owner, p);
  t.false(seen.seenByAccount);
  t.deepEqual([seen.notes, seen.bans, seen.names, seen.servers, seen.queue.history], [[], [], [], [], []]);
  t.false(seen.watch.watched);
  t.false(JSON.stringify(seen).includes(secret));
  t.false(JSON.stringify(seen).includes('OurName'));
  t.deepEqual((await api(t, env, theirs.owner, 'get', `/api/players/${p}/notes`)).body.notes, []);
  t.deepEqual((await api(t, env, theirs.owner, 'get', '/api/players?q=OurN')).body.players, []);
  t.deepEqual((await api(t, env, theirs.owner, 'get', `/api/players?q=${p}`)).body.players, []);

  assertError(t, await api(t, env, theirs.owner, 'delete', `/api/players/${p}/notes/${ourNote.body.id}`), 404, 'NOT_FOUND');
  t.is((await api(t, env, theirs.owner, 'delete', `/api/players/${p}/watch`)).status, 200);
  t.is((await api(t, env, theirs.owner, 'post', `/api/players/${p}/notes`, { body: 'theirs' })).status, 201);
  t.is((await api(t, env, theirs.owner, 'post', `/api/players/${p}/watch`)).status, 200);
  const theirsServer = theirs.servers[0]!;
  await feed(t, env, theirsServer, [events.presence('player.heartbeat', env.clock.now() - 500, p, 'TheirName')]);

  // Ours is as it was: our note only, still watched; their flag does not mark our list.
  const after = await profileOf(t, env, ours.viewer, p);
  t.deepEqual(
    after.notes.map((n: { id: string }) => n.id),
    [ourNote.body.id],
  );
  t.true(after.watch.watched);
  t.false(JSON.stringify(after).includes('TheirName'), "their server's names are theirs");
  t.deepEqual(
    after.servers.map((s: { serverId: string }) => s.serverId),
    [ours.servers[0]!.id],
  );
  await api(t, env, theirs.owner, 'delete', `/api/players/${p}/watch`);
  const ourList = await api(t, env, ours.viewer, 'get', `/api/servers/${ours.servers[0]!.id}/players`);
  t.true(ourList.body.players[0].watched);
  assertError(t, await api(t, env, theirs.owner, 'get', `/api/servers/${ours.servers[0]!.id}/players`), 404, 'NOT_FOUND');
  const theirAudit = await auditOf(env, theirs.owner.accountId);
  t.deepEqual(
    theirAudit.map((e) => e.action),
    ['player.note.add', 'player.watch', 'player.unwatch'],
    'their no-op clear of a flag they never set is not audited',
  );
});

test('a note is in no public or partner answer: trust lookup and entries, the partner export, the Data API', async (t) => {
  const env = await envFor(t);
  const operator = await setupOperator(env);
  const c = await community(env, 1);
  const s = c.servers[0]!;
  const p = freshSteam64();
  await feed(t, env, s, [
    events.presence('player.heartbeat', env.clock.now() - 1000, p, 'P'),
    events.kill(env.clock.now() - 500, [p, 'P'], [freshSteam64(), 'V']),
  ]);
  await note(t, env, c.moderator, p, { body: secret });
  const ban = await call(env, c.moderator, 'post', '/api/bans', { platformId: p, reason: 'x' });
  const entry = await call(env, c.owner, 'post', '/api/trust/submissions', { banId: ban.body.id, category: 'cheating', reason: 'r' });
  t.is(entry.status, 201);
  await decide(env, operator, entry.body.id, 'approve');
  await feedSettled(env);
  const partner = await api(t, env, operator, 'post', '/api/trust/partner-keys', { name: 'partner', tier: 'basic' });
  const exported = await env.request.get('/api/v1/trust/export').set('Authorization', `Bearer ${partner.body.key}`);
  t.true(exported.text.includes(p), 'the export carries the player');
  const key = (await call(env, c.owner, 'post', '/api/account/api-keys', { name: 'site' })).body.key as string;
  const answers: [string, Response][] = [
    ['partner export', exported],
    ['trust lookup', await env.request.get(`/api/v1/trust/${p}`)],
    ['trust entries', await env.request.get(`/api/v1/trust/${p}/entries`)],
    ['data players', await dataGet(env, { key }, `/servers/${s.id}/players`)],
    ['data leaderboard', await dataGet(env, { key }, `/servers/${s.id}/leaderboard`)],
    ['data kills', await dataGet(env, { key }, `/servers/${s.id}/kills`)],
    ['data bans', await dataGet(env, { key }, `/servers/${s.id}/bans`)],
  ];
  for (const [what, res] of answers) {
    t.is(res.status, 200, what);
    t.false(res.text.includes(secret), `${what} carries no note`);
    t.false(res.text.includes('"watched"'), `${what} carries no watch flag`);
  }
});
