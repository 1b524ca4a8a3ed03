// The community ban pool through the controller API: submissions, moderation, the rules on copied
// bans, the distinct-community count in the score, audit entries, and no submitter in public answers.
import { randomUUID } from 'node:crypto';
import test from 'ava';
import { insertAccount } from '../../src/accounts/account.repo.ts';
import { insertBan } from '../../src/bans/ban.repo.ts';
import { registerServer } from '../../src/servers/server.ts';
import { assertError } from '../helpers/data-api.ts';
import { api, envFor } from '../helpers/controller-http.ts';
import { setupOperator, userWithRole } from '../helpers/controller.ts';
import { assertSchema, ingest } from '../helpers/seed.ts';
import { assertNoSubmitter, decide, submit } from '../helpers/trust.ts';

const cheater = '76561198000000101';
const lookup = (env: Awaited<ReturnType<typeof envFor>>, id = cheater) => env.request.get(`/api/v1/trust/${id}`);

test('a submission is pending until a network moderator approves it; the score counts communities, not bans', async (t) => {
  const env = await envFor(t);
  const operator = await setupOperator(env);
  const a = await userWithRole(env, 'moderator');
  const b = await userWithRole(env, 'moderator');

  const first = await submit(env, a, { platformId: cheater, evidence: ['https://example.org/clip'] });
  assertSchema(t, 'trust-submission.json', first);
  t.is(first.status, 'pending');
  t.is(first.note, 'PRIVATE-NOTE-do-not-publish', 'the submitter sees its own note');
  let score = await lookup(env);
  t.is(score.status, 200);
  t.is(score.body.signals.submissionsPending, 1);
  t.is(score.body.signals.bansActive, 0);

  await decide(env, operator, String(first.id), 'approve');
  score = await lookup(env);
  t.is(score.body.signals.bansActive, 1, 'the approval reached the cached score');
  t.is(score.body.signals.submissionsPending, 0);
  const oneCommunity = score.body.score as number;

  // The same community again: still one community.
  const again = await submit(env, a, { platformId: cheater, category: 'exploiting', reason: 'duping' });
  await decide(env, operator, String(again.id), 'approve');
  score = await lookup(env);
  t.is(score.body.signals.bansActive, 1);
  t.is(score.body.score, oneCommunity);

  const second = await submit(env, b, { platformId: cheater });
  await decide(env, operator, String(second.id), 'approve');
  score = await lookup(env);
  t.is(score.body.signals.bansActive, 2);
  t.true(score.body.score < oneCommunity);

  await decide(env, operator, String(second.id), 'overturn');
  score = await lookup(env);
  t.is(score.body.signals.bansActive, 1);
  t.is(score.body.signals.overturns, 1);
  assertNoSubmitter(
    t,
    JSON.stringify(score.body) + JSON.stringify(score.headers),
    [a.accountId, b.accountId, a.userId, b.userId, a.username],
    'lookup',
  );

  const list = await api(t, env, operator, 'get', '/api/trust/submissions');
  t.is(list.body.submissions.length, 3);
  const own = await api(t, env, b, 'get', '/api/trust/submissions');
  t.deepEqual(
    own.body.submissions.map((s: { id: string }) => s.id),
    [second.id],
    'a community sees only its own submissions',
  );
  const pending = await api(t, env, operator, 'get', '/api/trust/submissions?status=pending');
  t.is(pending.body.submissions.length, 0);

  const audit = await env.deps.db.query<{ action: string }>("SELECT action FROM audit_log WHERE action LIKE 'trust.%' ORDER BY id");
  t.deepEqual(
    audit.rows.map((r) => r.action),
    ['trust.submit', 'trust.approve', 'trust.submit', 'trust.approve', 'trust.submit', 'trust.approve', 'trust.overturn'],
  );
  const details = await env.deps.db.query<{ details: unknown }>("SELECT details FROM audit_log WHERE action LIKE 'trust.%'");
  t.false(JSON.stringify(details.rows).includes('PRIVATE-NOTE'), 'the audit keeps no note');
});

test('moderation states: reject, approve twice, overturn a pending entry, unknown entries', async (t) => {
  const env = await envFor(t);
  const operator = await setupOperator(env);
  const community = await userWithRole(env, 'moderator');
  const entry = await submit(env, community, { platformId: cheater });
  const rejected = await api(t, env, operator, 'post', `/api/trust/submissions/${entry.id}/reject`);
  t.is(rejected.body.status, 'rejected');
  assertError(t, await api(t, env, operator, 'post', `/api/trust/submissions/${entry.id}/approve`), 409, 'CONFLICT');
  const pending = await submit(env, community, { platformId: cheater });
  assertError(t, await api(t, env, operator, 'post', `/api/trust/entries/${pending.id}/overturn`), 409, 'CONFLICT');
  await decide(env, operator, String(pending.id), 'approve');
  assertError(t, await api(t, env, operator, 'post', `/api/trust/submissions/${pending.id}/approve`), 409, 'CONFLICT');
  assertError(
    t,
    await api(t, env, operator, 'post', '/api/trust/submissions/00000000-0000-4000-8000-000000000000/approve'),
    404,
    'NOT_FOUND',
  );
  assertError(t, await api(t, env, operator, 'post', '/api/trust/submissions/not-a-uuid/approve'), 404, 'NOT_FOUND');
  const upper = await submit(env, community, { platformId: cheater });
  t.is((await api(t, env, operator, 'post', `/api/trust/submissions/${String(upper.id).toUpperCase()}/approve`)).status, 200);
});

test('permissions: viewers cannot submit, community owners cannot moderate, anonymous callers get 401', async (t) => {
  const env = await envFor(t);
  await setupOperator(env);
  const viewer = await userWithRole(env, 'viewer');
  const owner = await userWithRole(env, 'owner');
  const community = await userWithRole(env, 'moderator');
  assertError(
    t,
    await api(t, env, viewer, 'post', '/api/trust/submissions', { platformId: cheater, category: 'cheating', reason: 'x' }),
    403,
    'FORBIDDEN',
  );
  assertError(t, await api(t, env, viewer, 'get', '/api/trust/submissions'), 403, 'FORBIDDEN');
  const entry = await submit(env, community, { platformId: cheater });
  assertError(t, await api(t, env, owner, 'post', `/api/trust/submissions/${entry.id}/approve`), 403, 'FORBIDDEN');
  assertError(t, await api(t, env, undefined, 'get', '/api/trust/submissions'), 401, 'UNAUTHORIZED');
});

test('bad submissions are 400s: category outside the list, both or neither of platformId and banId, bad ids, bad links', async (t) => {
  const env = await envFor(t);
  await setupOperator(env);
  const community = await userWithRole(env, 'moderator');
  const cases: [string, Record<string, unknown>][] = [
    ['category', { platformId: cheater, category: 'hacking', reason: 'x' }],
    ['neither', { category: 'cheating', reason: 'x' }],
    ['both', { platformId: cheater, banId: '00000000-0000-4000-8000-000000000000', category: 'cheating', reason: 'x' }],
    ['chat id', { platformId: 'discord:175928847299117063', category: 'cheating', reason: 'x' }],
    ['garbage id', { platformId: 'hello', category: 'cheating', reason: 'x' }],
    ['blank reason', { platformId: cheater, category: 'cheating', reason: '   ' }],
    ['evidence scheme', { platformId: cheater, category: 'cheating', reason: 'x', evidence: ['javascript:alert(1)'] }],
    ['past expiry', { platformId: cheater, category: 'cheating', reason: 'x', expiresAt: '2020-01-01T00:00:00Z' }],
    ['unknown field', { platformId: cheater, category: 'cheating', reason: 'x', submitter: 'me' }],
  ];
  for (const [what, body] of cases)
    assertError(t, await api(t, env, community, 'post', '/api/trust/submissions', body), 400, 'BAD_REQUEST', what);
});

test('a ban copied from the pool or another community cannot be submitted back; an own ban can, once', async (t) => {
  const env = await envFor(t);
  await setupOperator(env);
  const community = await userWithRole(env, 'moderator');
  const other = await insertAccount(env.deps.db, 'other community');
  const imported = await insertBan(env.deps.db, community.accountId, { platformId: cheater, source: 'import' });
  const fromPool = await insertBan(env.deps.db, community.accountId, { platformId: '76561198000000102', source: 'cloud' });
  const foreign = await insertBan(env.deps.db, other.id, { platformId: cheater, source: 'manual' });
  const own = await insertBan(env.deps.db, community.accountId, {
    platformId: '76561198000000103',
    source: 'manual',
    expiresAt: '2027-01-01T00:00:00.000Z',
  });
  const body = (banId: string) => ({ banId, category: 'cheating', reason: 'seen' });
  assertError(t, await api(t, env, community, 'post', '/api/trust/submissions', body(imported)), 409, 'CONFLICT', 'imported');
  assertError(t, await api(t, env, community, 'post', '/api/trust/submissions', body(fromPool)), 409, 'CONFLICT', 'from the pool');
  assertError(
    t,
    await api(t, env, community, 'post', '/api/trust/submissions', body(foreign)),
    404,
    'NOT_FOUND',
    "another community's ban",
  );
  // From scratch, a player the community only holds a copied ban of is no evidence of its own either.
  assertError(
    t,
    await api(t, env, community, 'post', '/api/trust/submissions', { platformId: cheater, category: 'cheating', reason: 'x' }),
    409,
    'CONFLICT',
    'copy from scratch',
  );
  const entry = await api(t, env, community, 'post', '/api/trust/submissions', body(own));
  t.is(entry.status, 201);
  t.is(entry.body.platformId, '76561198000000103');
  t.is(entry.body.expiresAt, '2027-01-01T00:00:00.000Z', 'the ban expiry is taken');
  assertError(t, await api(t, env, community, 'post', '/api/trust/submissions', body(own)), 409, 'CONFLICT', 'twice');
});

test("the list names each player as the submitting community knows them: its ban's name, else the one seen on its servers", async (t) => {
  const env = await envFor(t);
  const operator = await setupOperator(env);
  const a = await userWithRole(env, 'moderator');
  const b = await userWithRole(env, 'moderator');
  const server = await registerServer(env.deps, a.accountId, { name: 'A one' });
  const [seen, banned, unknownToB] = ['76561198000000201', '76561198000000202', '76561198000000203'];
  const connect = (platformId: string, name: string) => ({
    id: randomUUID(),
    type: 'player.connect',
    ts: env.clock.now(),
    platformId,
    name,
  });
  await ingest(env, { serverId: server.server.id, token: server.ingestToken }, [
    connect(seen, 'Seen Sam'),
    connect(banned, 'Seen Bob'),
    connect(unknownToB, 'Seen Una'),
  ]).expect(200);
  const ban = await insertBan(env.deps.db, a.accountId, { platformId: banned, playerName: 'Banned Bob', source: 'manual' });
  await submit(env, a, { platformId: seen });
  await submit(env, a, { banId: ban });
  await submit(env, b, { platformId: unknownToB });

  const names = (body: { submissions: { platformId: string; playerName: string | null }[] }) =>
    Object.fromEntries(body.submissions.map((s) => [s.platformId, s.playerName]));
  const all = await api(t, env, operator, 'get', '/api/trust/submissions');
  assertSchema(t, 'trust-submission-list.json', all.body);
  t.deepEqual(names(all.body), { [seen]: 'Seen Sam', [banned]: 'Banned Bob', [unknownToB]: null });
  t.deepEqual(names((await api(t, env, b, 'get', '/api/trust/submissions')).body), { [unknownToB]: null }, "not seen on B's servers");
});
