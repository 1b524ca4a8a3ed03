// On a Redis Cluster a script, a transaction or a multi-key command must name keys of one hash
// slot (CROSSSLOT otherwise). This lists the keys each Lua script and each multi-key command of
// the service names, built by the same functions the service builds them with, and checks they
// share a slot under any key prefix: a key added without its hash tag fails here.
import test from 'ava';
import { scripts } from '../../src/store/redis.ts';
import { chatSignatureKey, jobLockKey, lockoutKeys, rateKey, serverKeys, trustBucketKeys, trustScoreKeys } from '../../src/store/keys.ts';
import { serverStateKeys } from '../../src/stats/stats.store.ts';
import { calculateSlot } from '../helpers/slots.ts';

const serverIds = ['6f1c2c64-3b7e-4d7e-9d59-1d1f4c1b2a10', '00000000-0000-4000-8000-000000000000'];
const platformIds = ['76561198000000001', 'eos:0002a1b2c3d4e5f6', 'x', 'a}b{c', ''];
const prefixes = ['', 't_0123456789ab:', 'tenant-1:', 'a:b:c_d-'];

/** The keys of each script, in its KEYS order, for some server, player or caller. */
const scriptKeys: Record<keyof typeof scripts, (n: number) => string[]> = {
  slidingWindow: (n) => [rateKey('ingest', serverIds[n % 2]!, 1000 + n), rateKey('ingest', serverIds[n % 2]!, 999 + n)],
  applyServerState: (n) => serverStateKeys(serverIds[n % 2]!),
  leaderboardSlice: (n) => {
    const k = serverKeys(serverIds[n % 2]!);
    return [k.ranking(n % 2 ? 'kd' : 'kills'), k.players, k.generation, k.meta];
  },
  storePage: (n) => [serverKeys(serverIds[n % 2]!).pages, serverKeys(serverIds[n % 2]!).generation],
  onlinePlayers: (n) => {
    const k = serverKeys(serverIds[n % 2]!);
    return [k.online, k.players, k.meta];
  },
  releaseLock: (n) => [jobLockKey(`job-${n}`)],
  loginAttempt: (n) => Object.values(lockoutKeys(`pair-${n}-AbCdEfGhIjKlMnOp`)),
  beginTrustScore: (n) => [trustScoreKeys(platformIds[n % platformIds.length]!).computing],
  storeTrustScore: (n) => {
    const k = trustScoreKeys(platformIds[n % platformIds.length]!);
    return [k.score, k.computing, k.held];
  },
  dropTrustScores: (n) => Object.values(trustBucketKeys(n % 8)),
  publishInOrder: (n) => [['cache:invalidate', 'operator:data-api', 'commands:wake'][n % 3]!],
};

/** The keys of each transaction and multi-key command (src/stats/stats.store.ts, src/servers/server.ts, src/trust/score.store.ts). */
const multiKeyCommands: Record<string, (n: number) => string[]> = {
  'rebuild begins: every derived key goes, the generation moves on': (n) => {
    const k = serverKeys(serverIds[n % 2]!);
    return [...serverStateKeys(serverIds[n % 2]!), ...k.retired];
  },
  'a server registered again or revoked: its status and meta': (n) => [
    serverKeys(serverIds[n % 2]!).status,
    serverKeys(serverIds[n % 2]!).meta,
  ],
  "dropped trust scores of one bucket, and the bucket's held set": (n) => {
    const bucket = n % 8;
    const players = Array.from({ length: 400 }, (_, i) => `7656119800${i}`).filter(
      (id) => trustScoreKeys(id).held === trustBucketKeys(bucket).held,
    );
    return [...players.map((id) => trustScoreKeys(id).score), trustBucketKeys(bucket).held];
  },
};

const slotsOf = (keys: string[], prefix: string) => new Set(keys.map((key) => calculateSlot(prefix + key)));

test('every script the client registers is listed here with as many keys as it declares', (t) => {
  t.deepEqual(Object.keys(scriptKeys).sort(), Object.keys(scripts).sort());
  for (const [name, { keys }] of Object.entries(scripts)) t.is(scriptKeys[name as keyof typeof scripts](0).length, keys, name);
});

test("each script's keys hash to one slot, under any prefix", (t) => {
  for (const [name, keysOf] of Object.entries(scriptKeys)) {
    for (let n = 0; n < 16; n++) for (const prefix of prefixes) t.is(slotsOf(keysOf(n), prefix).size, 1, `${name} #${n} under "${prefix}"`);
  }
});

test("each transaction's and multi-key command's keys hash to one slot, under any prefix", (t) => {
  for (const [name, keysOf] of Object.entries(multiKeyCommands)) {
    for (let n = 0; n < 16; n++) {
      const keys = keysOf(n);
      t.true(keys.length > 1, name);
      for (const prefix of prefixes) t.is(slotsOf(keys, prefix).size, 1, `${name} #${n} under "${prefix}"`);
    }
  }
});

test('the check can fail: keys of one server without a hash tag land in several slots', (t) => {
  const untagged = serverStateKeys(serverIds[0]!).map((key) => key.replace(/[{}]/g, ''));
  t.true(slotsOf(untagged, '').size > 1);
  t.true(slotsOf([chatSignatureKey('a'), chatSignatureKey('b'), jobLockKey('c')], '').size > 1);
});
