// Feed convergence (docs/trust-network.md): writers insert, approve, reject, overturn and expire pool entries
// concurrently, holding transactions open across page reads, while the reference client mirrors in
// small pages and resumes with since. After each round the mirror equals the pool's active bans.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import test from 'ava';
import type { ExecutionContext } from 'ava';
import { createApp } from '../../src/app.ts';
import { insertAccount } from '../../src/accounts/account.repo.ts';
import { inTransaction } from '../../src/store/db.ts';
import type { DbClient } from '../../src/store/db.ts';
import { insertSubmission, transitionEntry } from '../../src/trust/pool.repo.ts';
import type { EntryStatus } from '../../src/trust/pool.repo.ts';
import { emptyMirror, syncMirror } from '../../src/trust/mirror.ts';
import { envFor } from '../helpers/controller-http.ts';
import { setupOperator } from '../helpers/controller.ts';
import { feedSettled, rsaKey } from '../helpers/trust.ts';

const rounds = 15;
const writers = 4;
const opsPerWriter = 12;

async function randomEntry(tx: DbClient, status: EntryStatus): Promise<string | undefined> {
  const { rows } = await tx.query<{ id: string }>(
    'SELECT id FROM trust_entries WHERE status = $1 ORDER BY random() LIMIT 1 FOR UPDATE SKIP LOCKED',
    [status],
  );
  return rows[0]?.id;
}

/** One writer transaction: a random change, held open a while, sometimes rolled back. */
async function writeOnce(tx: DbClient, accounts: string[], at: string): Promise<void> {
  const choice = Math.random();
  if (choice < 0.4) {
    const entry = await insertSubmission(
      tx,
      {
        platformId: `765611981${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`,
        accountId: accounts[Math.floor(Math.random() * accounts.length)]!,
        submittedBy: randomUUID(),
        banId: null,
        category: 'cheating',
        reason: `r${Math.random()}`,
        evidence: [],
        note: 'private',
        expiresAt: null,
      },
      at,
    );
    if (entry && Math.random() < 0.7) await transitionEntry(tx, entry.id, ['pending'], 'active', at);
  } else {
    const [from, to]: [EntryStatus, EntryStatus] =
      choice < 0.6
        ? ['pending', 'active']
        : choice < 0.7
          ? ['pending', 'rejected']
          : choice < 0.85
            ? ['active', 'overturned']
            : ['active', 'expired'];
    const id = await randomEntry(tx, from);
    if (id) await transitionEntry(tx, id, [from], to, at);
  }
  await delay(Math.random() < 0.2 ? 25 : Math.random() * 5);
  if (Math.random() < 0.1) throw new Error('rolled back on purpose');
}

/** A service on a real port with a partner key, three communities and an empty mirror of its feed. */
async function feedWorld(t: ExecutionContext) {
  const env = await envFor(t, { TRUST_SIGNING_KEY: rsaKey(0), PG_POOL_SIZE: '12', RATE_EXPORT_BASIC: '100000' });
  const operator = await setupOperator(env);
  const partner = await env.request
    .post('/api/trust/partner-keys')
    .set('Authorization', `Bearer ${operator.token}`)
    .send({ name: 'mirror' });
  const accounts = await Promise.all([1, 2, 3].map(async (n) => (await insertAccount(env.deps.db, `community ${n}`)).id));
  const server = createServer(createApp(env.deps).callback()).listen(0, '127.0.0.1');
  t.teardown(() => server.close());
  await new Promise((resolve) => server.once('listening', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const options = { url, key: partner.body.key as string, pageSize: 3, now: () => env.clock.now() };
  return { env, accounts, options, mirror: emptyMirror(url), at: new Date(env.clock.now()).toISOString() };
}

const activeEntry = async (tx: DbClient, accountId: string, at: string) => {
  const entry = await insertSubmission(
    tx,
    {
      platformId: `765611982${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`,
      accountId,
      submittedBy: randomUUID(),
      banId: null,
      category: 'cheating',
      reason: 'held open',
      evidence: [],
      note: 'private',
      expiresAt: null,
    },
    at,
  );
  await transitionEntry(tx, entry!.id, ['pending'], 'active', at);
  return entry!.id;
};

test('a change whose transaction began first but commits after a page read is served by the next sync, never skipped', async (t) => {
  const { env, accounts, options, mirror, at } = await feedWorld(t);
  const held = await env.deps.db.connect();
  t.teardown(() => held.release());
  await held.query('BEGIN');
  const early = await activeEntry(held, accounts[0]!, at);
  const late = await inTransaction(env.deps.db, (tx) => activeEntry(tx, accounts[1]!, at));
  await syncMirror(mirror, options);
  t.deepEqual(Object.keys(mirror.bans), [], 'nothing at or above the open transaction is served yet, not even the committed later change');
  await held.query('COMMIT');
  await feedSettled(env);
  await syncMirror(mirror, options);
  t.deepEqual(Object.keys(mirror.bans).sort(), [early, late].sort());
});

test('the mirror equals the pool after concurrent writers, round after round', async (t) => {
  const { env, accounts, options, mirror, at } = await feedWorld(t);

  for (let round = 0; round < rounds; round++) {
    let writing = true;
    // The writers' last changes wait for the mirror's first sync, so at least two syncs overlap
    // the writers however fast a loaded machine runs one or the other.
    let firstSyncDone!: () => void;
    const firstSync = new Promise<void>((resolve) => (firstSyncDone = resolve));
    const work = Promise.all(
      Array.from({ length: writers }, async () => {
        for (let i = 0; i < opsPerWriter; i++) {
          if (i === opsPerWriter - 1) await firstSync;
          await inTransaction(env.deps.db, (tx) => writeOnce(tx, accounts, at)).catch(() => undefined);
        }
      }),
    ).finally(() => {
      writing = false;
    });
    let syncs = 0;
    while (writing) {
      await syncMirror(mirror, options);
      syncs++;
      firstSyncDone();
    }
    await work;
    await feedSettled(env);
    await syncMirror(mirror, options);
    const { rows } = await env.deps.db.query(
      `SELECT t.id, t.platform_id AS "platformId", p.service_id AS "serviceId", t.status, t.reason, t.category,
              t.created_at AS "createdAt", t.updated_at AS "updatedAt", t.expires_at AS "expiresAt"
       FROM trust_entries t LEFT JOIN players p ON p.platform_id = t.platform_id WHERE t.status = 'active'`,
    );
    const expected = Object.fromEntries(rows.map((r: { id: string }) => [r.id, r]));
    t.deepEqual(mirror.bans, expected, `round ${round} (${syncs} syncs while writing)`);
    t.true(syncs > 1, 'the mirror read while writers were busy');
  }
  const tombstones = await env.deps.db.query("SELECT count(*)::int AS n FROM trust_entries WHERE status IN ('overturned', 'expired')");
  t.true(tombstones.rows[0].n > 0, 'tombstones were part of the run');
  t.false(JSON.stringify(mirror).includes('private'), 'no note reached the mirror');
});
