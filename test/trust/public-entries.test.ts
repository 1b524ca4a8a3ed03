// GET /api/v1/trust/{identifier}/entries, behind the public player page: the communities whose pool
// entries weigh in the score, their category and state; never a rejected submission, the user who
// submitted, the reason text or the note; any identifier form the lookup takes; the lookup's limit.
import test from 'ava';
import { setupOperator, userWithRole } from '../helpers/controller.ts';
import { envFor } from '../helpers/controller-http.ts';
import { assertError } from '../helpers/data-api.ts';
import { assertSchema } from '../helpers/seed.ts';
import { assertNoSubmitter, decide, submit } from '../helpers/trust.ts';

const player = '76561198000000777';

test('the entries name each reporting community, category and state, and nothing of who submitted or why', async (t) => {
  const env = await envFor(t);
  const operator = await setupOperator(env);
  const a = await userWithRole(env, 'moderator');
  const b = await userWithRole(env, 'moderator');
  const c = await userWithRole(env, 'moderator');
  const { rows } = await env.deps.db.query<{ id: string; name: string }>('SELECT id, name FROM accounts WHERE id = ANY($1)', [
    [a.accountId, b.accountId, c.accountId],
  ]);
  const name = (id: string) => rows.find((r) => r.id === id)!.name;

  const approved = await submit(env, a, { platformId: player, category: 'cheating', reason: 'REASON-TEXT-a' });
  await decide(env, operator, String(approved.id), 'approve');
  env.clock.advance(1000);
  await submit(env, b, { platformId: player, category: 'griefing', reason: 'REASON-TEXT-b' });
  env.clock.advance(1000);
  const rejected = await submit(env, c, { platformId: player, category: 'toxicity', reason: 'REASON-TEXT-c' });
  await decide(env, operator, String(rejected.id), 'reject');

  const res = await env.request.get(`/api/v1/trust/${player}/entries`);
  t.is(res.status, 200);
  assertSchema(t, 'trust-public-entries.json', res.body);
  t.is(res.body.platformId, player);
  t.deepEqual(
    res.body.entries.map((e: { community: string; category: string; status: string }) => [e.community, e.category, e.status]),
    [
      [name(b.accountId), 'griefing', 'pending'],
      [name(a.accountId), 'cheating', 'active'],
    ],
  );
  assertNoSubmitter(
    t,
    JSON.stringify(res.body),
    [a.userId, b.userId, c.userId, a.accountId, b.accountId, 'REASON-TEXT', name(c.accountId)],
    'entries',
  );

  // By the legacy form of the same id (76561197960265728 + 2 * 19867524 + 1).
  const byLegacy = await env.request.get('/api/v1/trust/STEAM_0:1:19867524/entries');
  t.deepEqual(byLegacy.body, res.body);
  await decide(env, operator, String(approved.id), 'overturn');
  const timed = await submit(env, a, {
    platformId: player,
    category: 'exploiting',
    expiresAt: new Date(env.clock.now() + 3600_000).toISOString(),
  });
  await decide(env, operator, String(timed.id), 'approve');
  env.clock.advance(2 * 3600_000);
  const after = await env.request.get(`/api/v1/trust/${player}/entries`);
  t.deepEqual(
    after.body.entries.map((e: { category: string; status: string }) => [e.category, e.status]),
    [
      ['exploiting', 'expired'],
      ['griefing', 'pending'],
      ['cheating', 'overturned'],
    ],
    'past its expiry reads as expired before the job marks it',
  );
});

test('unknown and malformed identifiers answer 404 and 400; the lookup limit covers the entries too', async (t) => {
  const env = await envFor(t, { RATE_TRUST_LOOKUP: '3' });
  assertError(t, await env.request.get('/api/v1/trust/76561198000000999/entries'), 404, 'NOT_FOUND');
  assertError(t, await env.request.get('/api/v1/trust/hello/entries'), 400, 'BAD_REQUEST');
  await env.request.get('/api/v1/trust/76561198000000999');
  const limited = await env.request.get('/api/v1/trust/76561198000000999/entries');
  assertError(t, limited, 429, 'RATE_LIMITED');
  t.is(limited.headers['retry-after'], '60');
});
