// OpenAPI description of the Data API routes.
import type { Operation } from '../http/openapi-operation.ts';

const serverId = { serverId: 'server id (UUID); a server of another account answers 404' };
const common = {
  401: ['missing, unknown or revoked key', 'error.json'],
  429: ['per-minute rate exceeded (retryAfter 60)', 'error.json'],
  503: ['Data API disabled by the operator (DATA_API_DISABLED)', 'error.json'],
} as const;
const withServer = { ...common, 404: ['server not owned or unknown (NOT_FOUND)', 'error.json'] } as const;
const base = { tag: 'Data API', security: 'apiKey' } as const;

export const dataApiOperations: Operation[] = [
  {
    ...base,
    method: 'get',
    path: '/api/v1/data/servers',
    summary: 'Every non-revoked server of the account, newest activity first',
    responses: { 200: ['servers', 'server-list.json'], ...common },
  },
  {
    ...base,
    method: 'get',
    path: '/api/v1/data/servers/{serverId}',
    summary: 'Server status with the latest metrics sample',
    pathParams: serverId,
    responses: { 200: ['status', 'server-status.json'], ...withServer },
  },
  {
    ...base,
    method: 'get',
    path: '/api/v1/data/servers/{serverId}/players',
    summary: 'Players active in the last 90 seconds (identities only, never coordinates)',
    pathParams: serverId,
    responses: { 200: ['online players', 'online-players.json'], ...withServer },
  },
  {
    ...base,
    method: 'get',
    path: '/api/v1/data/servers/{serverId}/leaderboard',
    summary: 'Ranking by points, kd or kills',
    pathParams: serverId,
    query: 'query-leaderboard.json',
    responses: { 200: ['leaderboard page', 'leaderboard-page.json'], 400: ['a parameter is out of range', 'error.json'], ...withServer },
  },
  {
    ...base,
    method: 'get',
    path: '/api/v1/data/servers/{serverId}/kills',
    summary: 'Killfeed, newest first; page with nextCursor as before',
    pathParams: serverId,
    query: 'query-kills.json',
    responses: { 200: ['killfeed page', 'killfeed-page.json'], 400: ['a parameter is out of range', 'error.json'], ...withServer },
  },
  {
    ...base,
    method: 'get',
    path: '/api/v1/data/servers/{serverId}/bans',
    summary: "Bans in the server's ban file as last synced, newest in the file first",
    pathParams: serverId,
    query: 'query-bans.json',
    responses: { 200: ['ban list', 'ban-list.json'], 400: ['a parameter is out of range', 'error.json'], ...withServer },
  },
];
