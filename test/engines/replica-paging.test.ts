// Paging against a real lagging replica (TEST_DATABASE_READ_URL, scripts/ci/pg-replica.sh): replay
// is paused while the primary changes, and a partner walking the export never gets a page from an
// older view than the page (or the mark) it continues from. Without a replica there is nothing to
// lag, and these tests are skipped (they run in the "engines" CI stage).
import test from 'ava';
import type { ExecutionContext } from 'ava';
import supertest from 'supertest';
import { createApp } from '../../src/app.ts';
import { closeDeps, connectDeps, createDeps } from '../../src/deps.ts';
import { testEnv } from '../helpers/env.ts';
import type { TestEnv } from '../helpers/env.ts';
import { setupOperator, userWithRole } from '../helpers/controller.ts';
import type { Session } from '../helpers/controller.ts';
import { api } from '../helpers/controller-http.ts';
import { decide, feedSettled, submit } from '../helpers/trust.ts';
import { replicaCaughtUp, replicaPosition, testDatabaseReadUrl } from '../helpers/replica.ts';

const replicaTest = testDatabaseReadUrl ? test.serial : test.skip;
const pid = (n: number) => `7656119801${String(n).padStart(7, '0')}`;

interface Row {
  id: string;
  platformId: string;
  status: string;
}
interface Page {
  rows: Row[];
  nextCursor: string | null;
  syncedThrough: string | null;
}

async function world(t: ExecutionContext) {
  // The test decides when to wait for the replica: its requests do not wait for replay.
  const env = await testEnv({ RATE_AUTH: '100000', RATE_CONTROLLER: '100000', RATE_EXPORT_BASIC: '100000' }, { awaitReplica: false });
  t.teardown(() => env.close());
  // A second web process of the same service that reads the primary only: a page it answers comes
  // from a view the replica may not have replayed yet.
  const primaryOnly = createDeps({ ...env.deps.config, databaseReadUrl: undefined }, { clock: env.clock, log: env.deps.log });
  await connectDeps(primaryOnly);
  t.teardown(() => closeDeps(primaryOnly));
  t.is(primaryOnly.readDb, primaryOnly.db);
  const operator = await setupOperator(env);
  const community = await userWithRole(env, 'owner');
  const created = await api(t, env, operator, 'post', '/api/trust/partner-keys', { name: 'partner', tier: 'basic' });
  t.is(created.status, 201);
  return { env, primaryRequest: supertest(createApp(primaryOnly).callback()), operator, community, key: created.body.key as string };
}

async function approved(env: TestEnv, operator: Session, community: Session, n: number): Promise<string> {
  const entry = await submit(env, community, { platformId: pid(n) });
  await decide(env, operator, String(entry.id), 'approve');
  return String(entry.id);
}

const page = async (request: supertest.Agent | TestEnv['request'], key: string, query: string): Promise<Page> => {
  const res = await request.get(`/api/v1/trust/export${query}`).set('Authorization', `Bearer ${key}`);
  if (res.status !== 200) throw new Error(`export ${query}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as Page;
};

/** Pauses the replica's replay until the test ends (or resume() is called). */
async function pauseReplay(t: ExecutionContext, env: TestEnv) {
  await env.deps.readDb.query('SELECT pg_wal_replay_pause()');
  const resume = () => env.deps.readDb.query('SELECT pg_wal_replay_resume()').then(() => undefined);
  t.teardown(resume);
  return resume;
}

/** The status of an entry as the replica shows it now (undefined: the replica has not got it). */
async function replicaStatus(env: TestEnv, id: string): Promise<string | undefined> {
  const { rows } = await env.deps.readDb.query<{ status: string }>('SELECT status FROM trust_entries WHERE id = $1', [id]);
  return rows[0]?.status;
}

replicaTest(
  'a cursor from a newer view than the replica has replayed is read from the primary: the walk goes on from that view',
  async (t) => {
    const { env, primaryRequest, operator, community, key } = await world(t);
    const ids = [];
    for (let i = 0; i < 4; i++) ids.push(await approved(env, operator, community, i));
    await feedSettled(env);
    await replicaCaughtUp(env.deps);
    // Paused as briefly as the test allows: other test files read through the same replica.
    const resume = await pauseReplay(t, env);
    const before = await replicaPosition(env.deps);

    // On the primary: entry 3 overturned, two entries added.
    await decide(env, operator, ids[3]!, 'overturn');
    ids.push(await approved(env, operator, community, 4), await approved(env, operator, community, 5));
    await feedSettled(env);
    t.is(await replicaStatus(env, ids[3]!), 'active', 'the paused replica still holds the old view');
    t.is(await replicaStatus(env, ids[5]!), undefined, 'and lacks the new entries');

    // Page 1 from the primary-only process, the rest from the replica's.
    const first = await page(primaryRequest, key, '?limit=3');
    t.deepEqual(
      first.rows.map((r) => r.id),
      ids.slice(0, 3),
    );
    const second = await page(env.request, key, `?limit=3&cursor=${first.nextCursor!}`);
    t.deepEqual(
      second.rows.map((r) => [r.id, r.status]),
      [
        [ids[3], 'overturned'],
        [ids[4], 'active'],
        [ids[5], 'active'],
      ],
      'page 2 continues the view of page 1 (the replica would answer entry 3 still active, and nothing after it)',
    );
    t.is(await replicaPosition(env.deps), before, 'replay stayed paused throughout');
    await resume();
    const third = await page(env.request, key, `?limit=3&cursor=${second.nextCursor!}`);
    t.deepEqual(third.rows, []);
    t.truthy(third.syncedThrough);
  },
);

replicaTest('a resume from a mark made on a newer view is read from the primary; without a cursor the replica answers', async (t) => {
  const { env, primaryRequest, operator, community, key } = await world(t);
  const ids = [await approved(env, operator, community, 10), await approved(env, operator, community, 11)];
  await feedSettled(env);
  await replicaCaughtUp(env.deps);
  const resume = await pauseReplay(t, env);

  ids.push(await approved(env, operator, community, 12));
  await feedSettled(env);
  // A first page from the replica's process shows the replica's (older) view...
  const stale = await page(env.request, key, '?limit=10');
  t.deepEqual(
    stale.rows.map((r) => r.id),
    ids.slice(0, 2),
    'a read without a cursor is served by the paused replica',
  );
  // ...and a walk finished on the primary marks its newer view.
  const walked = await page(primaryRequest, key, '?limit=10');
  t.deepEqual(
    walked.rows.map((r) => r.id),
    ids,
  );
  t.truthy(walked.syncedThrough);

  await decide(env, operator, ids[0]!, 'overturn');
  await feedSettled(env);
  const resumed = await page(env.request, key, `?since=${encodeURIComponent(walked.syncedThrough!)}`);
  t.deepEqual(
    resumed.rows.map((r) => [r.id, r.status]),
    [[ids[0], 'overturned']],
    'the resume reads from a view at least as new as its mark: the paused replica has none of it',
  );
  t.is(await replicaStatus(env, ids[2]!), undefined);

  // Replay resumed and caught up: the replica serves the same answer.
  await resume();
  await replicaCaughtUp(env.deps);
  const again = await page(env.request, key, `?since=${encodeURIComponent(walked.syncedThrough!)}`);
  t.deepEqual(
    again.rows.map((r) => [r.id, r.status]),
    [[ids[0], 'overturned']],
  );
});
