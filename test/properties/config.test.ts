import { statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import test from 'ava';
import fc from 'fast-check';
import { ConfigError, loadConfig } from '../../src/config.ts';
import type { Config } from '../../src/config.ts';
import { anyText } from '../helpers/arbitraries.ts';

const numRuns = 200;

const names = [
  'NODE_ENV',
  'HOST',
  'PORT',
  'DATABASE_URL',
  'DATABASE_SCHEMA',
  'PG_POOL_SIZE',
  'REDIS_URL',
  'REDIS_CLUSTER_NODES',
  'REDIS_PREFIX',
  'LOG_LEVEL',
  'DATA_API_ENABLED',
  'RATE_DATA_STANDARD',
  'RATE_DATA_PARTNER',
  'RATE_INGEST',
  'RATE_CONTROLLER',
  'RATE_AUTH',
  'RATE_CHAT',
  'CONTROLLER_RATE_LIMIT',
  'JWT_SECRET',
  'SESSION_TTL_MINUTES',
  'PASSWORD_SCRYPT_N',
  'TRUSTED_PROXIES',
  'MAP_TILES_DIR',
  'INGEST_BODY_LIMIT_BYTES',
  'AUTH_CACHE_MS',
  'STORE_PRODUCTS',
  'TEBEX_SOURCE_ADDRESSES',
  'STORE_WEBHOOK_SECRET',
  'GAME_FILES_DIR',
  'GAME_FILE_SYNC_TIMEOUT_MS',
  'WEB_CONCURRENCY',
  'METRICS_TOKEN',
] as const;

const base = { NODE_ENV: 'test', LOG_LEVEL: 'silent', JWT_SECRET: 'a-test-secret-of-at-least-32-characters!' };

/** Values a variable might be given: arbitrary text, and text close to what some variable expects. */
const value = fc.oneof(
  anyText,
  fc.constantFrom(
    'production',
    'development',
    'test',
    'debug',
    'silent',
    'true',
    'false',
    'yes',
    '0',
    '1',
    '65535',
    '65536',
    '1023',
    '1024',
    '16384',
    '67108864',
    '67108865',
    '100',
    '101',
    'postgres://x',
    'postgresql://u@h/db',
    'redis://h',
    'rediss://h:1',
    '127.0.0.1:7001,127.0.0.1:7002',
    'redis-a:6379, [::1]:7001',
    'h:0',
    'h:65536',
    'h:1,,h:2',
    '[::1]',
    'mysql://x',
    '{"vip":{"days":30,"servers":"all"}}',
    '{"tebex:12":{"days":null,"servers":["6f1c2c64-3b7e-4d7e-9d59-1d1f4c1b2a10"]}}',
    '{"vip":{"days":0,"servers":"all"}}',
    '{"a b":{"days":1,"servers":"all"}}',
    '{}',
    'public',
    'Bad-Schema',
    'a'.repeat(63),
    'a'.repeat(64),
    'tenant:',
    'x y',
    '10.0.0.0/8',
    '10.0.0.0/33',
    '::1, 127.0.0.1',
    '1.2.3',
    'fe80::/129',
    '/',
    '//',
    '/tmp',
    '/tmp/',
    '/tmp/../tmp',
    '/etc/hostname',
    '/no/such/folder',
    'relative/folder',
    '.',
    '99',
    '100',
    '600000',
    '600001',
  ),
  fc.stringMatching(/^[0-9a-f.:/, ]{0,20}$/),
  fc.integer({ min: -10, max: 100_000_000_000 }).map(String),
  fc.string({ minLength: 30, maxLength: 40 }),
);

const int = (v: number, min: number, max: number) => Number.isInteger(v) && v >= min && v <= max;

/** Throws when a returned Config holds a value outside what the service can run with. */
function checkConfig(c: Config): void {
  const wrong = (what: string) => {
    throw new Error(`${what}: ${JSON.stringify(c).slice(0, 300)}`);
  };
  if (!['development', 'test', 'production'].includes(c.env)) wrong('env');
  if (!int(c.port, 0, 65535)) wrong('port');
  if (!int(c.pgPoolSize, 1, 100)) wrong('pgPoolSize');
  for (const [k, v] of Object.entries(c.rates)) if (!int(v, 1, 1_000_000_000)) wrong(`rates.${k}`);
  if (!int(c.ingestBodyLimitBytes, 1024, 64 * 1024 * 1024)) wrong('ingestBodyLimitBytes');
  if (!int(c.authCacheMs, 1, 60_000)) wrong('authCacheMs');
  if (!int(c.sessionTtlMinutes, 5, 60 * 24 * 30)) wrong('sessionTtlMinutes');
  // A power of two (scrypt's rule), and production's strength in production.
  if (!int(Math.log2(c.passwordScryptN), 10, 16) || (c.env === 'production' && c.passwordScryptN < 16384)) wrong('passwordScryptN');
  if (typeof c.dataApiEnabled !== 'boolean' || typeof c.controllerRateLimit !== 'boolean') wrong('booleans');
  if (!/^postgres(ql)?:\/\//.test(c.databaseUrl) || !/^rediss?:\/\//.test(c.redisUrl)) wrong('urls');
  if (
    c.redisClusterNodes !== undefined &&
    (c.redisClusterNodes.length === 0 ||
      c.redisClusterNodes.some((n) => n.host === '' || /[[\],\s]/.test(n.host) || !int(n.port, 1, 65535)))
  )
    wrong('redisClusterNodes');
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(c.databaseSchema)) wrong('databaseSchema');
  if (!/^[A-Za-z0-9:_-]*$/.test(c.redisPrefix)) wrong('redisPrefix');
  if (typeof c.jwtSecret !== 'string' || c.jwtSecret.length < 32) wrong('jwtSecret');
  if (typeof c.host !== 'string' || c.host.length === 0 || typeof c.mapTilesDir !== 'string' || c.mapTilesDir.length === 0)
    wrong('host, mapTilesDir');
  if (c.gameFilesDir !== undefined && (!isAbsolute(c.gameFilesDir) || c.gameFilesDir === '/' || !statSync(c.gameFilesDir).isDirectory()))
    wrong('gameFilesDir');
  if (!int(c.gameFileSyncTimeoutMs, 100, 600_000)) wrong('gameFileSyncTimeoutMs');
  if (!Array.isArray(c.trustedProxies) || c.trustedProxies.some((p) => typeof p !== 'string' || p.trim() !== p || p === ''))
    wrong('trustedProxies');
}

/** The variables a ConfigError names (each problem starts with one). */
const named = (err: ConfigError): (string | undefined)[] =>
  err.problems.map((p) => names.find((n) => p.startsWith(`${n}=`) || p.startsWith(`${n}:`)));

type Outcome = { config: Config } | { error: ConfigError };
function load(env: Record<string, string>): Outcome {
  try {
    return { config: loadConfig(env) };
  } catch (err) {
    if (err instanceof ConfigError) return { error: err };
    throw err;
  }
}

test('one variable set to anything: a valid Config, or a ConfigError naming exactly that variable', (t) => {
  fc.assert(
    fc.property(fc.constantFrom(...names), value, (name, v) => {
      const outcome = load({ ...base, [name]: v });
      if ('config' in outcome) return checkConfig(outcome.config);
      const which = named(outcome.error);
      if (which.length === 0 || which.some((n) => n !== name))
        throw new Error(`${name}=${JSON.stringify(v)}: ${outcome.error.problems.join(' | ')}`);
    }),
    { numRuns },
  );
  t.pass();
});

test('several variables set to anything: every variable that is bad alone is named, and nothing else', (t) => {
  fc.assert(
    fc.property(fc.dictionary(fc.constantFrom(...names), value, { minKeys: 2, maxKeys: 6 }), (vars) => {
      // Production needs its secret: keep the base one unless the draw sets JWT_SECRET itself.
      const env = { ...base, ...vars };
      const badAlone = Object.keys(vars).filter((n) => 'error' in load({ ...base, [n]: vars[n]! }));
      const outcome = load(env);
      if ('config' in outcome) {
        if (badAlone.length > 0) throw new Error(`accepted although ${badAlone.join(', ')} are bad`);
        return checkConfig(outcome.config);
      }
      const which = named(outcome.error);
      const given = new Set(Object.keys(vars));
      if (which.some((n) => n === undefined || !given.has(n)))
        throw new Error(`names a variable not given: ${outcome.error.problems.join(' | ')}`);
      const missing = badAlone.filter((n) => !which.includes(n));
      if (missing.length > 0)
        throw new Error(`${missing.join(', ')} not named in: ${outcome.error.problems.join(' | ')} for ${JSON.stringify(vars)}`);
    }),
    { numRuns },
  );
  t.pass();
});

test('an empty environment outside production loads the defaults', (t) => {
  const c = loadConfig({});
  checkConfig(c);
  t.like(c, {
    env: 'development',
    port: 3000,
    rates: { dataStandard: 60, dataPartner: 600, ingest: 6000, controller: 600, auth: 20, chat: 120 },
  });
  t.throws(() => loadConfig({ NODE_ENV: 'production' }), { instanceOf: ConfigError, message: /JWT_SECRET/ });
});

test("REDIS_CLUSTER_NODES: host:port entries become the Cluster client's nodes; anything else is named", (t) => {
  t.is(loadConfig(base).redisClusterNodes, undefined);
  t.deepEqual(loadConfig({ ...base, REDIS_CLUSTER_NODES: '127.0.0.1:7001, redis-b.internal:7002,[::1]:7003' }).redisClusterNodes, [
    { host: '127.0.0.1', port: 7001 },
    { host: 'redis-b.internal', port: 7002 },
    { host: '::1', port: 7003 },
  ]);
  for (const bad of ['127.0.0.1', '127.0.0.1:0', 'h:65536', 'h:1,,h:2', 'redis://h:1', 'h:1;h:2']) {
    const err = t.throws(() => loadConfig({ ...base, REDIS_CLUSTER_NODES: bad }), { instanceOf: ConfigError });
    t.regex(err.message, /REDIS_CLUSTER_NODES: ".*" is not host:port/, bad);
  }
});

test('STORE_PRODUCTS: a good table is read with ids lower-cased; a bad one stops the start naming the problem', (t) => {
  const server = '6F1C2C64-3B7E-4D7E-9D59-1D1F4C1B2A10';
  const c = loadConfig({
    STORE_PRODUCTS: JSON.stringify({
      vip: { days: 30, servers: 'all' },
      'tebex:6012': { accountId: server, days: null, servers: [server] },
    }),
  });
  t.deepEqual(c.store.products, {
    vip: { days: 30, servers: 'all' },
    'tebex:6012': { accountId: server.toLowerCase(), days: null, servers: [server.toLowerCase()] },
  });
  for (const [bad, problem] of [
    ['{"vip":', /not JSON/],
    ['{"vip":{"days":30}}', /servers/],
    ['{"vip":{"days":-1,"servers":"all"}}', /days/],
    ['{"tebex:x":{"days":1,"servers":"all"}}', /"tebex:x" is neither a sku/],
    ['{"vip":{"days":1,"servers":["nope"]}}', /servers/],
  ] as const) {
    t.throws(() => loadConfig({ STORE_PRODUCTS: bad }), { instanceOf: ConfigError, message: problem }, bad);
  }
});

test('GAME_FILES_DIR: an absolute folder that exists, kept normalised; anything else stops the start naming it', (t) => {
  t.is(loadConfig({}).gameFilesDir, undefined, "unset: files on the service's host are off");
  t.is(loadConfig({ GAME_FILES_DIR: '/tmp/' }).gameFilesDir, '/tmp');
  t.is(loadConfig({ GAME_FILES_DIR: '/tmp/./' }).gameFilesDir, '/tmp');
  for (const [bad, problem] of [
    ['relative/folder', /absolute/],
    ['/', /not the root/],
    ['/no/such/folder', /no such folder/],
    ['/etc/hostname', /not a folder/],
  ] as const) {
    t.throws(() => loadConfig({ GAME_FILES_DIR: bad }), { instanceOf: ConfigError, message: problem }, bad);
  }
  t.is(loadConfig({}).gameFileSyncTimeoutMs, 10_000);
});

test('WEB_CONCURRENCY: one web process unless set, at most 64; METRICS_TOKEN: unset, or 16 to 512 visible characters', (t) => {
  t.like(loadConfig({}), { webConcurrency: 1, metricsToken: undefined });
  t.like(loadConfig({ WEB_CONCURRENCY: '4', METRICS_TOKEN: 'a-scraper-token-0123' }), {
    webConcurrency: 4,
    metricsToken: 'a-scraper-token-0123',
  });
  for (const bad of ['0', '65', '1.5', 'two', '-1']) {
    t.throws(() => loadConfig({ WEB_CONCURRENCY: bad }), { instanceOf: ConfigError, message: /^.*WEB_CONCURRENCY=/s }, bad);
  }
  for (const bad of ['short', 'a token with spaces in it', 'x'.repeat(513)]) {
    t.throws(() => loadConfig({ METRICS_TOKEN: bad }), { instanceOf: ConfigError, message: /METRICS_TOKEN=/ }, bad);
  }
});
