// The ioredis client with the service's Lua scripts registered as commands (sent as EVALSHA).
import { readFileSync } from 'node:fs';
import { Redis } from 'ioredis';

const scripts = {
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
} as const;

type ScriptReply = Promise<unknown>;
export type AppRedis = Redis & {
  [K in keyof typeof scripts]: (...args: (string | number | Buffer)[]) => ScriptReply;
};

export function createRedis(url: string, keyPrefix: string): AppRedis {
  const redis = new Redis(url, {
    keyPrefix,
    lazyConnect: true,
    // Fail fast instead of queueing without bound while Redis is away.
    enableOfflineQueue: false,
    commandTimeout: 2000,
    // Commands issued in the same tick leave in one write: under load, far fewer system calls.
    enableAutoPipelining: true,
    maxRetriesPerRequest: 1,
    connectTimeout: 3000,
  });
  // Connection errors surface on the commands that fail; the client keeps reconnecting.
  redis.on('error', () => undefined);
  for (const [name, { file, keys }] of Object.entries(scripts)) {
    const lua = readFileSync(new URL(file, import.meta.url), 'utf8');
    redis.defineCommand(name, { numberOfKeys: keys, lua });
  }
  return redis as AppRedis;
}
