// The Redis key layout. Keys of one game server share the hash tag {srv:<id>} so the layout
// works unchanged on Redis Cluster.
//
//   {srv:<id>}:players       hash  platformId -> "<version>|<kd ranking member>|<JSON totals>"
//   {srv:<id>}:lb:kills      zset  platformId -> -kills * 2^26 + deaths (also the points ranking); see stats/ranking.ts
//   {srv:<id>}:lb:kd         zset  kd ranking member (the platform id, or "#<tie-breakers>:<platformId>") -> kd score
//   {srv:<id>}:online        zset  platformId -> ms of the player's last presence event
//   {srv:<id>}:status        string JSON of the server's status record
//   {srv:<id>}:pages         hash  rendered Data API pages, dropped by every change to the server
//   {srv:<id>}:gen           int   bumped with every change; a page computed under an older one is not stored
//   {srv:<id>}:meta          hash  w (every batch version up to w applied), sv (status version), r (rebuilding)
//     (it was {srv:<id>}:derived while the points had a ranking of their own, and {srv:<id>}:state
//     while every kd-ranking member carried its tie-breakers: a server whose state is of an earlier
//     layout reads as missing and is rebuilt, which removes the retired keys)
//   {srv:<id>}:applied       set   batch versions above w applied early (out of order)
//   rl:{<scope>:<id>}:<n>    int   requests in sliding-window slot n
//   lockout:{<pair>}:fails   list  failed login times of one (IP, username) pair in the last 10 min
//   lockout:{<pair>}:state   hash  until, level, lastLock of that pair's lockout
//   lockout:{<pair>}:pending zset  attempt id -> expiry ms: sign-ins of the pair whose password is being checked
//   operator:data-api        "1"/"0" the runtime Data API switch (and the pub/sub channel of its changes)
//   meta:lagging             hash  serverId -> "<version>:<ms>": since when its derived state lags PostgreSQL
//   lock:<job>               worker job lock
//   trust:{tb:<n>}:<platformId>:score  string staleAtMs, proof and rendered TrustScore body, one a line (TTL until stale)
//   trust:{tb:<n>}:computing hash  platformId -> token of the computation of its score under way; a drop removes the
//     player, so a score computed from older evidence is not stored
//     (n: one of 8 buckets by the platform id's hash, so a batch's players are dropped in one script call a bucket)
//   chat:sig:<signature>     a chat-bot signature already used (kept for twice the 300 s window)
export const serverKeys = (serverId: string) => {
  const tag = `{srv:${serverId}}`;
  return {
    players: `${tag}:players`,
    ranking: (set: string) => `${tag}:lb:${set}`,
    online: `${tag}:online`,
    status: `${tag}:status`,
    pages: `${tag}:pages`,
    generation: `${tag}:gen`,
    meta: `${tag}:meta`,
    applied: `${tag}:applied`,
    /** Keys of the earlier layout, removed by a rebuild. */
    retired: [`${tag}:derived`, `${tag}:lb:points`, `${tag}:state`],
  };
};

export const rateKey = (scope: string, id: string, slot: number) => `rl:{${scope}:${id}}:${slot}`;
export const lockoutKeys = (pair: string) => ({
  failures: `lockout:{${pair}}:fails`,
  state: `lockout:{${pair}}:state`,
  pending: `lockout:{${pair}}:pending`,
});
export const dataApiSwitchKey = 'operator:data-api';
export const laggingServersKey = 'meta:lagging';
export const jobLockKey = (job: string) => `lock:${job}`;
export const chatSignatureKey = (signature: string) => `chat:sig:${signature}`;
const trustScoreBuckets = 8;

/** The bucket of a player's score keys: FNV-1a of the platform id. */
export function trustScoreBucket(platformId: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < platformId.length; i++) hash = Math.imul(hash ^ platformId.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % trustScoreBuckets;
}

/** A bucket's scores being computed and scores held, with their expiry (one hash slot). */
export const trustBucketKeys = (bucket: number) => ({ computing: `trust:{tb:${bucket}}:computing`, held: `trust:{tb:${bucket}}:held` });

/** A player's cached score, with its bucket's keys. */
export const trustScoreKeys = (platformId: string) => {
  const bucket = trustScoreBucket(platformId);
  return { score: `trust:{tb:${bucket}}:${platformId}:score`, ...trustBucketKeys(bucket) };
};
