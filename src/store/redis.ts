// The ioredis client with the service's Lua scripts registered as commands (sent as EVALSHA): a
// plain client of REDIS_URL, or, with REDIS_CLUSTER_NODES, the Cluster client. Every key a script
// or a transaction names shares one hash tag (src/store/keys.ts), so each touches one slot.
import { readFileSync } from 'node:fs';
import { Cluster, Redis } from 'ioredis';
import type { RedisOptions } from 'ioredis';
import type { Config } from '../config.ts';

/** Each script and how many of its arguments are keys (test/store/cluster-slots.test.ts names them). */
export const scripts = {
  slidingWindow: { file: '../http/sliding-window.lua', keys: 2 },
  applyServerState: { file: '../stats/apply-server-state.lua', keys: 9 },
  leaderboardSlice: { file: '../stats/leaderboard-slice.lua', keys: 4 },
  storePage: { file: '../stats/store-page.lua', keys: 2 },
  onlinePlayers: { file: '../stats/online-players.lua', keys: 3 },
  releaseLock: { file: './release-lock.lua', keys: 1 },
  loginAttempt: { file: '../auth/login-attempt.lua', keys: 3 },
  beginTrustScore: { file: '../trust/begin-score.lua', keys: 1 },
  storeTrustScore: { file: '../trust/store-score.lua', keys: 3 },
  dropTrustScores: { file: '../trust/drop-scores.lua', keys: 2 },
  publishInOrder: { file: './publish.lua', keys: 1 },
} as const;

type ScriptReply = Promise<unknown>;
export type AppRedis = (Redis | Cluster) & {
  [K in keyof typeof scripts]: (...args: (string | number | Buffer)[]) => ScriptReply;
};

export type RedisTarget = Pick<Config, 'redisUrl' | 'redisClusterNodes' | 'redisPrefix'>;

/** Options of every connection, to a single server or to each node of a cluster. */
const connectionOptions = {
  // Fail fast instead of queueing without bound while Redis is away.
  commandTimeout: 2000,
  maxRetriesPerRequest: 1,
  connectTimeout: 3000,
} satisfies RedisOptions;

export function createRedis(target: RedisTarget): AppRedis {
  const redis = target.redisClusterNodes ? clusterClient(target.redisClusterNodes, target.redisPrefix) : plainClient(target);
  // Connection errors surface on the commands that fail; the client keeps reconnecting.
  redis.on('error', () => undefined);
  for (const [name, { file, keys }] of Object.entries(scripts)) {
    const lua = readFileSync(new URL(file, import.meta.url), 'utf8');
    redis.defineCommand(name, { numberOfKeys: keys, lua });
  }
  return redis as AppRedis;
}

function plainClient(target: RedisTarget): Redis {
  return new Redis(target.redisUrl, {
    ...connectionOptions,
    keyPrefix: target.redisPrefix,
    lazyConnect: true,
    enableOfflineQueue: false,
    // Commands issued in the same tick leave in one write: under load, far fewer system calls.
    enableAutoPipelining: true,
  });
}

/**
 * The Cluster client. Reads and writes go to the masters (a replica may lag behind a write the
 * same request made). A command that meets a failover (MOVED, CLUSTERDOWN, a lost connection) is
 * retried on the new owner of its slot once the slots are fetched again, so a master replaced by
 * its replica costs the commands in flight a wait of a few seconds, not an error. As with one
 * server, no offline queue: while the client knows no live node at all, commands fail at once.
 */
function clusterClient(nodes: { host: string; port: number }[], keyPrefix: string): Cluster {
  return new Cluster(nodes, {
    // The prefix on the Cluster itself: the client computes each command's slot from the prefixed
    // keys; the node connections carry none (a command reaches them already prefixed).
    keyPrefix,
    lazyConnect: true,
    scaleReads: 'master',
    enableOfflineQueue: false,
    enableAutoPipelining: true,
    retryDelayOnFailover: 200,
    retryDelayOnClusterDown: 300,
    retryDelayOnTryAgain: 100,
    maxRedirections: 16,
    // As long as a connection may take: a loaded process reads the answer late, and a refresh that
    // times out on every node fails the connect.
    slotsRefreshTimeout: 3000,
    clusterRetryStrategy: (times: number) => Math.min(100 * times, 2000),
    redisOptions: connectionOptions,
  });
}

/**
 * Connects the client. The Cluster client gives up its first connect as soon as one fetch of the
 * slots fails on every node it was given (a node restarting, a failover under way, a process too
 * loaded to read the answer in time), and then keeps trying (clusterRetryStrategy): a cluster that
 * becomes ready within waitMs is waited for rather than failing the start.
 */
export async function connectRedis(redis: Redis | Cluster, waitMs = 15_000): Promise<void> {
  try {
    await redis.connect();
  } catch (err) {
    if (!(redis instanceof Cluster) || redis.status === 'end') throw err;
    await new Promise<void>((resolve, reject) => {
      const ready = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        redis.off('ready', ready);
        reject(err as Error);
      }, waitMs);
      redis.once('ready', ready);
    });
  }
}
