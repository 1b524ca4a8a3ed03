// The Redis key layout. Keys of one game server share the hash tag {srv:<id>} so the layout
// works unchanged on Redis Cluster.
//
//   {srv:<id>}:players       hash  platformId -> JSON player totals (name, kills, deaths, ...)
//   {srv:<id>}:lb:<sort>     zset  ranking member -> -(sort value); see data-api/leaderboard.ts
//   {srv:<id>}:online        zset  platformId -> ms of the player's last presence event
//   {srv:<id>}:status        string JSON of the server's status record
//   {srv:<id>}:pages         hash  rendered Data API pages, dropped by every change to the server
//   {srv:<id>}:gen           int   bumped with every change; a page computed under an older one is not stored
//   rl:{<scope>:<id>}:<n>    int   requests in sliding-window slot n
//   lockout:{<pair>}:fails   list  failed login times of one (IP, username) pair in the last 10 min
//   lockout:{<pair>}:state   hash  until, level, lastLock of that pair's lockout
//   operator:data-api        "1"/"0" the runtime Data API switch (and the pub/sub channel of its changes)
//   meta:derived             marker: derived state was built; missing means Redis came back empty
//   lock:<job>               worker job lock
import type { LeaderboardSort } from '../stats/ranking.ts';

export const serverKeys = (serverId: string) => {
  const tag = `{srv:${serverId}}`;
  return {
    players: `${tag}:players`,
    leaderboard: (sort: LeaderboardSort) => `${tag}:lb:${sort}`,
    online: `${tag}:online`,
    status: `${tag}:status`,
    pages: `${tag}:pages`,
    generation: `${tag}:gen`,
  };
};

export const rateKey = (scope: string, id: string, slot: number) => `rl:{${scope}:${id}}:${slot}`;
export const lockoutKeys = (pair: string) => ({ failures: `lockout:{${pair}}:fails`, state: `lockout:{${pair}}:state` });
export const dataApiSwitchKey = 'operator:data-api';
export const derivedMarkerKey = 'meta:derived';
export const jobLockKey = (job: string) => `lock:${job}`;
