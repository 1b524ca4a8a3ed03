// OpenAPI description of the ban routes (session, bans.manage).
import type { Operation } from '../http/openapi-operation.ts';

const e = (description: string) => [description, 'error.json'] as const;
const session = {
  401: e('no session (UNAUTHORIZED)'),
  403: e('csrf-mismatch, or the role lacks bans.manage (FORBIDDEN)'),
  429: e('rate limit (Retry-After)'),
};
const withBody = { ...session, 400: e('invalid body'), 415: e('not application/json') };
const common = { tag: 'Bans', security: 'session' as const };
const banId = { banId: 'ban id (UUID)' };

export const banOperations: Operation[] = [
  {
    ...common,
    method: 'get',
    path: '/api/bans',
    summary: "Searches the account's bans by platform id (either form) or name, newest first, paginated",
    query: 'query-ban-search.json',
    responses: { 200: ['page of bans', 'ban-record-page.json'], ...session, 400: e('invalid query') },
  },
  {
    ...common,
    method: 'post',
    path: '/api/bans',
    summary: 'Bans a player on every server of the account (permanent, or timed by expiresAt or durationMinutes); the ban files are synced',
    body: 'ban-create.json',
    responses: { 201: ['the ban', 'ban-record.json'], ...withBody, 409: e('the player already has a ban in force') },
  },
  {
    ...common,
    method: 'post',
    path: '/api/bans/import',
    summary: "Copies another community's ban by its shared id (source import)",
    body: 'ban-import.json',
    responses: {
      201: ['the copy', 'ban-record.json'],
      ...withBody,
      404: e('no ban in force has that id'),
      409: e('your own ban, or the player already has a ban in force'),
    },
  },
  {
    ...common,
    method: 'get',
    path: '/api/bans/{banId}',
    summary: 'One ban of the account, lifted ones included',
    pathParams: banId,
    responses: { 200: ['the ban', 'ban-record.json'], ...session, 404: e('no such ban in the account') },
  },
  {
    ...common,
    method: 'patch',
    path: '/api/bans/{banId}',
    summary: "Changes a ban's player name, reason or expiry; the ban files are synced",
    pathParams: banId,
    body: 'ban-update.json',
    responses: { 200: ['the ban', 'ban-record.json'], ...withBody, 404: e('no such ban in the account'), 409: e('the ban is lifted') },
  },
  {
    ...common,
    method: 'delete',
    path: '/api/bans/{banId}',
    summary: 'Lifts a ban: kept in history with liftedAt and liftedBy, gone from the ban files and the Data API',
    pathParams: banId,
    responses: { 200: ['the lifted ban', 'ban-record.json'], ...session, 404: e('no such ban in the account'), 409: e('lifted before') },
  },
];
