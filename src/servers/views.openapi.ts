// OpenAPI description of the server page's reads (session, servers.read).
import type { Operation } from '../http/openapi-operation.ts';

const e = (description: string) => [description, 'error.json'] as const;
const session = {
  401: e('no session (UNAUTHORIZED)'),
  403: e('the role lacks servers.read (FORBIDDEN)'),
  429: e('rate limit (Retry-After)'),
  404: e('no such server in the account'),
};
const read = { tag: 'Servers', security: 'session', pathParams: { id: 'server id (UUID)' } } as const;
const rebuilding = { 503: e("the server's Redis state is being rebuilt (REBUILDING, Retry-After: 5) or a store is unavailable") };

export const serverViewOperations: Operation[] = [
  {
    ...read,
    method: 'get',
    path: '/api/servers/{id}/players',
    summary:
      'Players active in the last 90 seconds, as the Data API lists them, each marked whether the account watches them (servers.read)',
    responses: { 200: ['online players', 'server-online-players.json'], ...session, ...rebuilding },
  },
  {
    ...read,
    method: 'get',
    path: '/api/servers/{id}/leaderboard',
    summary: 'The ranking, as the Data API pages it; at most 100 a page (servers.read)',
    query: 'query-leaderboard.json',
    responses: { 200: ['leaderboard page', 'leaderboard-page.json'], 400: e('a parameter is out of range'), ...session, ...rebuilding },
  },
  {
    ...read,
    method: 'get',
    path: '/api/servers/{id}/kills',
    summary: 'The killfeed, newest first; page with nextCursor as before; at most 100 a page (servers.read)',
    query: 'query-kills.json',
    responses: { 200: ['killfeed page', 'killfeed-page.json'], 400: e('a parameter is out of range'), ...session },
  },
  {
    ...read,
    method: 'get',
    path: '/api/servers/{id}/bans',
    summary: "Bans in the server's ban file as last synced, newest in the file first; at most 100 a page (servers.read)",
    query: 'query-bans.json',
    responses: { 200: ['ban list', 'ban-list.json'], 400: e('a parameter is out of range'), ...session },
  },
  {
    ...read,
    method: 'get',
    path: '/api/servers/{id}/metrics',
    summary:
      'Stored status samples (online, players, fps, uptime) with from < at <= to, oldest first; default the last 24 hours; page with nextCursor as from (servers.read)',
    query: 'query-server-metrics.json',
    responses: { 200: ['samples', 'metrics-page.json'], 400: e('a parameter is out of range, or from is not before to'), ...session },
  },
];
