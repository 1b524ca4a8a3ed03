// The read replica's fallback: a replica that refuses connections does not take the Data API, the
// trust lookup or the export down; their reads go to the primary, the log says so once, and the
// replica is tried again after a pause. What counts as the replica being unavailable, and what is the
// read's own error.
import { Writable } from 'node:stream';
import test from 'ava';
import { pino } from 'pino';
import supertest from 'supertest';
import { createApp } from '../../src/app.ts';
import { closeDeps, connectDeps, createDeps } from '../../src/deps.ts';
import { readView, replicaRetryMs, replicaUnavailable } from '../../src/store/read-view.ts';
import { badRequest } from '../../src/http/errors.ts';
import { testEnv, testDatabaseUrl } from '../helpers/env.ts';
import { tenant } from '../helpers/seed.ts';

/** A database URL nothing listens on: every connection is refused at once. */
const refusingUrl = (() => {
  const url = new URL(testDatabaseUrl);
  url.port = '1';
  return url.toString();
})();

function capturedLog() {
  const lines: { level: number; msg: string }[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as { level: number; msg: string });
      done();
    },
  });
  return { log: pino({ level: 'info', base: undefined }, stream), lines };
}

test('a replica refusing connections: the Data API and the trust lookup answer from the primary, logged once', async (t) => {
  const env = await testEnv();
  t.teardown(() => env.close());
  const { log, lines } = capturedLog();
  const deps = createDeps({ ...env.deps.config, databaseReadUrl: refusingUrl }, { clock: env.clock, log });
  await connectDeps(deps);
  t.teardown(() => closeDeps(deps));
  t.not(deps.readDb, deps.db);
  const request = supertest(createApp(deps).callback());
  const a = await tenant(env.deps);
  const warnings = () => lines.filter((l) => /read replica unavailable/.test(l.msg));

  for (let i = 0; i < 3; i++) {
    const servers = await request.get('/api/v1/data/servers').set('Authorization', `Bearer ${a.key}`);
    t.is(servers.status, 200);
    t.deepEqual(
      servers.body.servers.map((s: { id: string }) => s.id),
      [a.serverId],
    );
    const bans = await request.get(`/api/v1/data/servers/${a.serverId}/bans`).set('Authorization', `Bearer ${a.key}`);
    t.is(bans.status, 200);
    t.deepEqual(bans.body, { bans: [] });
  }
  t.is((await request.get('/api/v1/trust/76561198000000001')).status, 404, 'an unknown player, read on the primary');
  t.is(warnings().length, 1, 'the fallback is logged once');
  t.is(warnings()[0]!.level, 40, 'as a warning');

  // Tried again after the pause (still refused): still answered, still not logged again.
  env.clock.advance(replicaRetryMs + 1);
  const again = await request.get('/api/v1/data/servers').set('Authorization', `Bearer ${a.key}`);
  t.is(again.status, 200);
  t.is(warnings().length, 1);
});

test("readView: a read's own error is thrown as it is, never read again elsewhere; what counts as the replica being unavailable", async (t) => {
  const env = await testEnv();
  t.teardown(() => env.close());
  t.is(env.deps.readDb === env.deps.db, !process.env.TEST_DATABASE_READ_URL);
  const { log } = capturedLog();
  const deps = createDeps({ ...env.deps.config, databaseReadUrl: refusingUrl }, { clock: env.clock, log });
  t.teardown(() => closeDeps(deps));
  let calls = 0;
  // The world's own read view (the replica with TEST_DATABASE_READ_URL, else the primary)...
  await t.throwsAsync(
    readView(env.deps, null, async (db) => {
      calls++;
      await db.query('SELECT 1/0');
    }),
    { message: /division by zero/ },
  );
  // ...and the primary after a refused replica.
  await t.throwsAsync(
    readView(deps, null, async (db) => {
      calls++;
      await db.query('SELECT 1/0');
    }),
    { message: /division by zero/ },
  );
  t.is(calls, 2, 'each read once');
  t.false(replicaUnavailable(badRequest('cursor is not a nextCursor of this feed')));
  t.false(replicaUnavailable(Object.assign(new Error('x'), { code: '22012' })));
  for (const code of ['ECONNREFUSED', 'ECONNRESET', '08006', '57P01', '57P03', '40001'])
    t.true(replicaUnavailable(Object.assign(new Error('x'), { code })), code);
  t.true(replicaUnavailable(new Error('Connection terminated unexpectedly')));
  t.true(replicaUnavailable(new Error('timeout exceeded when trying to connect')));
});
