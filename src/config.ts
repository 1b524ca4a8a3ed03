// Reads the environment once, validates every value, and turns it into the typed Config.
// Nothing else in the service reads process.env or Deno.env.
import { hkdfSync, randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import { isAbsolute, parse, resolve } from 'node:path';
import { trustSigningKeysFrom } from './config/trust-signing-keys.ts';
import { storeProductsFrom } from './config/store-products.ts';
import type { StoreProducts } from './config/store-products.ts';
import { Ajv } from 'ajv';
import ipaddr from 'ipaddr.js';

export interface RateLimits {
  dataStandard: number;
  dataPartner: number;
  ingest: number;
  controller: number;
  auth: number;
  chat: number;
  trustLookup: number;
  exportBasic: number;
  exportPremium: number;
}

export interface Config {
  env: 'development' | 'test' | 'production';
  host: string;
  port: number;
  /** Web processes sharing the port (node:cluster); 1 serves in the starting process itself. */
  webConcurrency: number;
  /** Bearer token of GET /metrics; without it the route does not exist (404). */
  metricsToken: string | undefined;
  databaseUrl: string;
  /**
   * A streaming replica of the database (DATABASE_READ_URL) that the Data API's, the trust lookup's
   * and the partner export's reads go to; undefined: they read the primary, as everything else does.
   */
  databaseReadUrl: string | undefined;
  databaseSchema: string;
  pgPoolSize: number;
  redisUrl: string;
  /**
   * REDIS_CLUSTER_NODES: some nodes of a Redis Cluster (the client learns the rest from them). When
   * set, every process uses the Cluster client and REDIS_URL is not used.
   */
  redisClusterNodes: { host: string; port: number }[] | undefined;
  redisPrefix: string;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  dataApiEnabled: boolean;
  rates: RateLimits;
  ingestBodyLimitBytes: number;
  authCacheMs: number;
  pageCacheMs: number;
  /** HMAC key of session JWTs and CSRF tokens. */
  jwtSecret: string;
  sessionTtlMinutes: number;
  /** scrypt's cost (N) for new password hashes: production strength unless a test sets it lower (never in production). */
  passwordScryptN: number;
  /** Proxies (addresses or CIDR ranges) whose X-Forwarded-For / X-Forwarded-Proto are believed. */
  trustedProxies: string[];
  controllerRateLimit: boolean;
  mapTilesDir: string;
  /**
   * The only folder of the service's host where servers' game files may be (docs/game-files.md): set by the
   * operator, absolute. Without it no server's file on this host is read or written.
   */
  gameFilesDir: string | undefined;
  /** How long one server's file sync may take before it counts as failed (the others never wait on it). */
  gameFileSyncTimeoutMs: number;
  chat: {
    /**
     * The key each community's chat bot secret is derived from (CHAT_BOT_KEY; else derived from
     * JWT_SECRET): the service stores no bot secret, it derives it again to check a call.
     */
    botKey: Buffer;
    /** The operator account's bot (calls without X-Chat-Bot): HMAC key it signs with; without it, no such call verifies. */
    signingSecret: string | undefined;
    /** Refuse calls without signature headers (otherwise they run as the built-in chat-bot role). */
    requireSignature: boolean;
    /** Folder of the per-account roles files (<accountId>.json). */
    rolesDir: string;
  };
  /** RSA private keys (PEM) of trust proofs, newest first: the first signs, all are published. */
  trustSigningKeys: string[];
  /** `iss` of trust proofs. */
  trustIssuer: string;
  /** The store webhook (docs/api.md): its secrets, its product table, where Tebex may call from. */
  store: {
    tebexSecret: string | undefined;
    ownSecret: string | undefined;
    products: StoreProducts;
    /** Addresses or CIDR ranges Tebex calls from; empty = any address. */
    tebexSources: string[];
  };
  /** Outbound events (src/webhooks/). */
  webhooks: {
    /**
     * WEBHOOK_ALLOW_PRIVATE=1: endpoints may be private or loopback addresses and plain http. For
     * tests only: otherwise an endpoint is https to public addresses.
     */
    allowPrivate: boolean;
    /** The key standard endpoints' signing secrets are derived from (WEBHOOK_SECRET_KEY; else derived from JWT_SECRET). */
    secretKey: Buffer;
  };
}

/** The least scrypt cost production runs with (the default everywhere): 16 MiB and tens of milliseconds a hash. */
const productionScryptN = 16384;
const int = (def: number, min = 1, max = 1_000_000_000) => ({ type: 'integer', minimum: min, maximum: max, default: def });
const envSchema = {
  type: 'object',
  properties: {
    NODE_ENV: { enum: ['development', 'test', 'production'], default: 'development' },
    HOST: { type: 'string', minLength: 1, default: '0.0.0.0' },
    PORT: int(3000, 0, 65535),
    WEB_CONCURRENCY: int(1, 1, 64),
    METRICS_TOKEN: { type: 'string', minLength: 16, maxLength: 512, pattern: '^[\\x21-\\x7e]+$' },
    DATABASE_URL: { type: 'string', pattern: '^postgres(ql)?://', default: 'postgres://postgres@127.0.0.1:5432/gameservice' },
    DATABASE_READ_URL: { type: 'string', pattern: '^postgres(ql)?://' },
    DATABASE_SCHEMA: { type: 'string', pattern: '^[a-z_][a-z0-9_]{0,62}$', default: 'public' },
    PG_POOL_SIZE: int(4, 1, 100),
    REDIS_URL: { type: 'string', pattern: '^rediss?://', default: 'redis://127.0.0.1:6379' },
    REDIS_CLUSTER_NODES: { type: 'string', minLength: 1, maxLength: 2000 },
    REDIS_PREFIX: { type: 'string', pattern: '^[A-Za-z0-9:_-]*$', default: '' },
    LOG_LEVEL: { enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], default: 'info' },
    DATA_API_ENABLED: { type: 'boolean', default: true },
    RATE_DATA_STANDARD: int(60),
    RATE_DATA_PARTNER: int(600),
    RATE_INGEST: int(6000),
    RATE_CONTROLLER: int(600),
    RATE_AUTH: int(20),
    RATE_CHAT: int(120),
    RATE_TRUST_LOOKUP: int(60),
    RATE_EXPORT_BASIC: int(60),
    RATE_EXPORT_PREMIUM: int(300),
    TRUST_SIGNING_KEY: { type: 'string', minLength: 1 },
    TRUST_SIGNING_KEY_FILE: { type: 'string', minLength: 1 },
    TRUST_ISSUER: { type: 'string', minLength: 1, maxLength: 200, default: 'gameservice-trust' },
    CONTROLLER_RATE_LIMIT: { type: 'boolean', default: true },
    JWT_SECRET: { type: 'string', minLength: 32, maxLength: 512 },
    SESSION_TTL_MINUTES: int(720, 5, 60 * 24 * 30),
    PASSWORD_SCRYPT_N: { type: 'integer', enum: [1024, 2048, 4096, 8192, productionScryptN, 32768, 65536], default: productionScryptN },
    TRUSTED_PROXIES: { type: 'string', pattern: '^[0-9a-fA-F.:/, ]*$', default: '' },
    MAP_TILES_DIR: { type: 'string', minLength: 1, default: 'fixtures/tiles' },
    GAME_FILES_DIR: { type: 'string', minLength: 1, maxLength: 1000 },
    GAME_FILE_SYNC_TIMEOUT_MS: int(10_000, 100, 600_000),
    INGEST_BODY_LIMIT_BYTES: int(2 * 1024 * 1024, 1024, 64 * 1024 * 1024),
    AUTH_CACHE_MS: int(5000, 1, 60_000),
    PAGE_CACHE_MS: int(1000, 1, 60_000),
    CHAT_SIGNING_SECRET: { type: 'string', minLength: 32, maxLength: 512 },
    CHAT_BOT_KEY: { type: 'string', minLength: 32, maxLength: 512 },
    CHAT_REQUIRE_SIGNATURE: { type: 'boolean', default: false },
    CHAT_ROLES_DIR: { type: 'string', minLength: 1, default: 'data/chat-roles' },
    TEBEX_WEBHOOK_SECRET: { type: 'string', minLength: 8, maxLength: 512 },
    STORE_WEBHOOK_SECRET: { type: 'string', minLength: 32, maxLength: 512 },
    STORE_PRODUCTS: { type: 'string', minLength: 2, maxLength: 200_000 },
    TEBEX_SOURCE_ADDRESSES: { type: 'string', pattern: '^[0-9a-fA-F.:/, ]*$', default: '' },
    WEBHOOK_ALLOW_PRIVATE: { enum: ['0', '1', 'false', 'true'], default: '0' },
    WEBHOOK_SECRET_KEY: { type: 'string', minLength: 32, maxLength: 512 },
  },
} as const;

type EnvValues = { [K in keyof typeof envSchema.properties]: unknown };

const ajv = new Ajv({ coerceTypes: true, useDefaults: true, allErrors: true });
const validateEnv = ajv.compile(envSchema);

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n  ${problems.join('\n  ')}`);
    this.name = 'ConfigError';
  }
}

/** Validates the environment; throws a ConfigError naming every bad variable. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const input: Record<string, unknown> = {};
  for (const name of Object.keys(envSchema.properties)) {
    const value = env[name];
    if (value !== undefined && value !== '') input[name] = value;
  }
  // Every problem is collected before throwing, so that one run names every bad variable.
  const problems = validateEnv(input)
    ? []
    : (validateEnv.errors ?? []).map((e) => {
        const name = e.instancePath.slice(1);
        return `${name}=${JSON.stringify(env[name])}: ${e.message ?? 'is invalid'}`;
      });
  // Ajv coerces "Infinity" and "1e400" to Infinity, yet checks integer and range on the text, so they pass.
  for (const [name, value] of Object.entries(input)) {
    if (typeof value === 'number' && !Number.isFinite(value))
      problems.push(`${name}=${JSON.stringify(env[name])}: must be a finite number`);
  }
  const v = input as EnvValues;
  if (v.JWT_SECRET === undefined && v.NODE_ENV === 'production')
    problems.push('JWT_SECRET: required in production (at least 32 characters)');
  const webhookAllowPrivate = v.WEBHOOK_ALLOW_PRIVATE === '1' || v.WEBHOOK_ALLOW_PRIVATE === 'true';
  if (webhookAllowPrivate && v.NODE_ENV === 'production')
    problems.push('WEBHOOK_ALLOW_PRIVATE: tests only; in production webhooks go to public https addresses alone');
  // A cheaper hash is for tests, where hundreds of users are made; production keeps the strong one.
  if (v.NODE_ENV === 'production' && (v.PASSWORD_SCRYPT_N as number) < productionScryptN)
    problems.push(`PASSWORD_SCRYPT_N=${JSON.stringify(env.PASSWORD_SCRYPT_N)}: at least ${productionScryptN} in production`);
  const trustedProxies = addressList(v.TRUSTED_PROXIES, 'TRUSTED_PROXIES', problems);
  const tebexSources = addressList(v.TEBEX_SOURCE_ADDRESSES, 'TEBEX_SOURCE_ADDRESSES', problems);
  const store = storeProductsFrom(v.STORE_PRODUCTS as string | undefined);
  problems.push(...store.problems);
  const trustKeys = trustSigningKeysFrom(v.TRUST_SIGNING_KEY as string | undefined, v.TRUST_SIGNING_KEY_FILE as string | undefined);
  problems.push(...trustKeys.problems);
  const redisClusterNodes = clusterNodesFrom(v.REDIS_CLUSTER_NODES as string | undefined, problems);
  const gameFilesDir = gameFilesDirFrom(v.GAME_FILES_DIR as string | undefined, problems);
  if (problems.length > 0) throw new ConfigError(problems);
  const jwtSecret = (v.JWT_SECRET as string | undefined) ?? randomBytes(32).toString('base64url');
  return {
    env: v.NODE_ENV as Config['env'],
    host: v.HOST as string,
    port: v.PORT as number,
    webConcurrency: v.WEB_CONCURRENCY as number,
    metricsToken: v.METRICS_TOKEN as string | undefined,
    databaseUrl: v.DATABASE_URL as string,
    databaseReadUrl: v.DATABASE_READ_URL as string | undefined,
    databaseSchema: v.DATABASE_SCHEMA as string,
    pgPoolSize: v.PG_POOL_SIZE as number,
    redisUrl: v.REDIS_URL as string,
    redisClusterNodes,
    redisPrefix: v.REDIS_PREFIX as string,
    logLevel: v.LOG_LEVEL as Config['logLevel'],
    dataApiEnabled: v.DATA_API_ENABLED as boolean,
    rates: {
      dataStandard: v.RATE_DATA_STANDARD as number,
      dataPartner: v.RATE_DATA_PARTNER as number,
      ingest: v.RATE_INGEST as number,
      controller: v.RATE_CONTROLLER as number,
      auth: v.RATE_AUTH as number,
      chat: v.RATE_CHAT as number,
      trustLookup: v.RATE_TRUST_LOOKUP as number,
      exportBasic: v.RATE_EXPORT_BASIC as number,
      exportPremium: v.RATE_EXPORT_PREMIUM as number,
    },
    ingestBodyLimitBytes: v.INGEST_BODY_LIMIT_BYTES as number,
    authCacheMs: v.AUTH_CACHE_MS as number,
    pageCacheMs: v.PAGE_CACHE_MS as number,
    // Outside production a missing secret is replaced by a random one: sessions end with the process.
    jwtSecret,
    sessionTtlMinutes: v.SESSION_TTL_MINUTES as number,
    passwordScryptN: v.PASSWORD_SCRYPT_N as number,
    trustedProxies,
    controllerRateLimit: v.CONTROLLER_RATE_LIMIT as boolean,
    mapTilesDir: v.MAP_TILES_DIR as string,
    gameFilesDir,
    gameFileSyncTimeoutMs: v.GAME_FILE_SYNC_TIMEOUT_MS as number,
    trustSigningKeys: trustKeys.keys,
    trustIssuer: v.TRUST_ISSUER as string,
    chat: {
      botKey: chatBotKey(v.CHAT_BOT_KEY as string | undefined, jwtSecret),
      signingSecret: v.CHAT_SIGNING_SECRET as string | undefined,
      requireSignature: v.CHAT_REQUIRE_SIGNATURE as boolean,
      rolesDir: v.CHAT_ROLES_DIR as string,
    },
    store: {
      tebexSecret: v.TEBEX_WEBHOOK_SECRET as string | undefined,
      ownSecret: v.STORE_WEBHOOK_SECRET as string | undefined,
      products: store.products,
      tebexSources,
    },
    webhooks: {
      allowPrivate: webhookAllowPrivate,
      secretKey: derivedKey(v.WEBHOOK_SECRET_KEY as string | undefined, jwtSecret, 'webhook secrets'),
    },
  };
}

/** A comma-separated list of addresses or CIDR ranges; each one that is neither is a problem. */
function addressList(value: unknown, name: string, problems: string[]): string[] {
  const entries = String(value ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  for (const entry of entries) {
    if (!ipaddr.isValidCIDR(entry) && !ipaddr.isValid(entry)) problems.push(`${name}: "${entry}" is not an address or CIDR range`);
  }
  return entries;
}

/** REDIS_CLUSTER_NODES: "host:port" entries separated by commas (an IPv6 host in brackets). */
function clusterNodesFrom(value: string | undefined, problems: string[]): Config['redisClusterNodes'] {
  if (value === undefined) return undefined;
  const nodes: { host: string; port: number }[] = [];
  for (const entry of value.split(',').map((e) => e.trim())) {
    const match = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):([0-9]{1,5})$/.exec(entry);
    const port = Number(match?.[2]);
    if (!match || port < 1 || port > 65535) {
      problems.push(`REDIS_CLUSTER_NODES: "${entry}" is not host:port (the list is host:port,host:port,...)`);
      continue;
    }
    nodes.push({ host: match[1]!.replace(/^\[|\]$/g, ''), port });
  }
  return nodes.length > 0 ? nodes : undefined;
}

/**
 * GAME_FILES_DIR: an absolute folder that exists, never the root of the file system (that would
 * confine nothing). Kept normalised (no trailing slash, no `.` or `..` parts).
 */
function gameFilesDirFrom(value: string | undefined, problems: string[]): string | undefined {
  if (value === undefined) return undefined;
  const where = `GAME_FILES_DIR=${JSON.stringify(value)}`;
  if (!isAbsolute(value)) {
    problems.push(`${where}: must be an absolute folder`);
    return undefined;
  }
  const dir = resolve(value);
  if (parse(dir).root === dir) {
    problems.push(`${where}: must be a folder of its own, not the root of the file system`);
    return undefined;
  }
  let problem: string | undefined;
  try {
    const found = statSync(dir, { throwIfNoEntry: false });
    if (!found?.isDirectory()) problem = found ? 'is not a folder' : 'no such folder';
  } catch (err) {
    problem = `cannot be read (${(err as Error).message})`;
  }
  if (problem) problems.push(`${where}: ${problem}`);
  return problem ? undefined : dir;
}

/**
 * The key chat bots' secrets are derived from: CHAT_BOT_KEY, else a key of its own derived from
 * JWT_SECRET (HKDF, so neither key tells the other). Without either set, bot secrets change at
 * every start, as sessions do.
 */
function chatBotKey(configured: string | undefined, jwtSecret: string): Buffer {
  return derivedKey(configured, jwtSecret, 'chat bot secrets');
}

/** A key of its own for one use: from its own setting if given, else from JWT_SECRET (HKDF, so neither key tells the other). */
function derivedKey(configured: string | undefined, jwtSecret: string, use: string): Buffer {
  return Buffer.from(hkdfSync('sha256', configured ?? jwtSecret, 'gameservice', configured ? use : `${use} from JWT_SECRET`, 32));
}
