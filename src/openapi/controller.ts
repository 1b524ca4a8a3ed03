// OpenAPI description of the controller routes (session-authenticated, under /api).
import type { Operation } from '../http/openapi-operation.ts';
import { trustControllerOperations } from '../trust/openapi.ts';

const e = (description: string) => [description, 'error.json'] as const;
const session = { 401: e('no session (UNAUTHORIZED)'), 403: e('csrf-mismatch, or the role lacks the permission (FORBIDDEN)'), 429: e('rate limit (Retry-After)') };
const withBody = { ...session, 400: e('invalid body'), 415: e('not application/json') };
const id = (what: string) => ({ id: `${what} id (UUID)` });
const op = (tag: string, security: Operation['security']) => ({ tag, security });

export const controllerOperations: Operation[] = [
  { ...op('Setup', undefined), method: 'get', path: '/api/setup/status', summary: 'Whether the first administrator still has to be created', responses: { 200: ['setup state', 'setup-status.json'] } },
  { ...op('Setup', undefined), method: 'post', path: '/api/setup/admin', summary: "Creates the network operator's account and its owner; only while no user exists", body: 'setup-admin.json',
    responses: { 201: ['account and owner', 'account-created.json'], 400: e('invalid body'), 409: e('setup is done'), 429: e('rate limit') } },
  { ...op('Session', undefined), method: 'post', path: '/api/auth/login', summary: 'Signs in: sets the auth-token and csrf-token cookies and returns the JWT', body: 'login.json',
    responses: { 200: ['session', 'login-result.json'], 400: e('invalid body'), 401: e('wrong username or password (INVALID_CREDENTIALS)'), 429: e('locked out or rate limited (Retry-After)'), 503: e('Redis unavailable: sign-in refused') } },
  { ...op('Session', 'session'), method: 'post', path: '/api/auth/logout', summary: 'Ends this session for good and clears the cookie', responses: { 204: ['signed out'], ...session } },
  { ...op('Session', 'session'), method: 'get', path: '/api/auth/session', summary: 'The signed-in user, their community and the permissions their role grants', responses: { 200: ['session', 'session.json'], ...session } },
  { ...op('Users', 'session'), method: 'get', path: '/api/users', summary: "The account's users (users.manage)", responses: { 200: ['users', 'user-list.json'], ...session } },
  { ...op('Users', 'session'), method: 'post', path: '/api/users', summary: 'Adds a user (users.manage)', body: 'user-create.json', responses: { 201: ['user', 'user.json'], ...withBody, 409: e('username taken') } },
  { ...op('Users', 'session'), method: 'patch', path: '/api/users/{id}', summary: "Changes a user's role or password; ends their sessions (users.manage)", pathParams: id('user'), body: 'user-update.json',
    responses: { 200: ['user', 'user.json'], ...withBody, 404: e('no such user in the account'), 409: e('the last owner keeps the owner role') } },
  { ...op('Users', 'session'), method: 'delete', path: '/api/users/{id}', summary: 'Removes a user and ends their sessions (users.manage)', pathParams: id('user'),
    responses: { 204: ['removed'], ...session, 404: e('no such user in the account'), 409: e('yourself, or the last owner') } },
  { ...op('Accounts', 'session'), method: 'get', path: '/api/accounts', summary: 'Every community of the network with its live servers (accounts.manage)', responses: { 200: ['accounts', 'account-list.json'], ...session } },
  { ...op('Accounts', 'session'), method: 'post', path: '/api/accounts', summary: 'Adds a community with its owner (accounts.manage)', body: 'account-create.json',
    responses: { 201: ['account and owner', 'account-created.json'], ...withBody, 409: e('username taken') } },
  { ...op('Operator', 'session'), method: 'get', path: '/api/operator/data-api', summary: 'The Data API switch (accounts.manage)', responses: { 200: ['state', 'data-api-switch.json'], ...session } },
  { ...op('Operator', 'session'), method: 'put', path: '/api/operator/data-api', summary: 'Turns the Data API on or off for the whole instance (accounts.manage)', body: 'data-api-switch.json',
    responses: { 200: ['state', 'data-api-switch.json'], ...withBody } },
  { ...op('Operator', 'session'), method: 'post', path: '/api/operator/rebuild', summary: 'Rebuilds Redis-derived state (leaderboards, online windows, status) from PostgreSQL (accounts.manage)',
    responses: { 200: ['servers and player totals rebuilt', 'rebuild-result.json'], ...session } },
  { ...op('API keys', 'session'), method: 'get', path: '/api/account/api-keys', summary: "The account's Data API keys, without the keys themselves (apikeys.manage)", responses: { 200: ['keys', 'api-key-list.json'], ...session } },
  { ...op('API keys', 'session'), method: 'post', path: '/api/account/api-keys', summary: 'Mints a key; the raw key is shown once (apikeys.manage; partner tier needs partners.manage)', body: 'api-key-create.json',
    responses: { 201: ['key', 'api-key-created.json'], ...withBody } },
  { ...op('API keys', 'session'), method: 'delete', path: '/api/account/api-keys/{id}', summary: 'Revokes a key (apikeys.manage)', pathParams: id('key'), responses: { 204: ['revoked'], ...session, 404: e('no such key in the account') } },
  { ...op('Servers', 'session'), method: 'get', path: '/api/servers', summary: "The account's servers (servers.read; the restart command only with servers.manage)", responses: { 200: ['servers', 'managed-server-list.json'], ...session } },
  { ...op('Servers', 'session'), method: 'post', path: '/api/servers', summary: 'Registers a server; its ingest token is shown once (servers.manage; file paths: accounts.manage)', body: 'server-create.json',
    responses: { 201: ['server and ingest token', 'server-created.json'], ...withBody, 409: e('another server already uses that file') } },
  { ...op('Servers', 'session'), method: 'get', path: '/api/servers/{id}', summary: 'One server (servers.read; the restart command only with servers.manage)', pathParams: id('server'), responses: { 200: ['server', 'managed-server.json'], ...session, 404: e('no such server in the account') } },
  { ...op('Servers', 'session'), method: 'patch', path: '/api/servers/{id}', summary: "Changes a server's name or file paths (servers.manage; naming a file path: accounts.manage)", pathParams: id('server'), body: 'server-update.json',
    responses: { 200: ['server', 'managed-server.json'], ...withBody, 404: e('no such server in the account'), 409: e('another server already uses that file') } },
  { ...op('Servers', 'session'), method: 'delete', path: '/api/servers/{id}', summary: 'Revokes a server and its ingest token (servers.manage)', pathParams: id('server'), responses: { 204: ['revoked'], ...session, 404: e('no such server in the account') } },
  { ...op('Servers', 'session'), method: 'post', path: '/api/servers/{id}/ingest-token', summary: 'Rotates the ingest token; the old one stops working (servers.manage)', pathParams: id('server'),
    responses: { 200: ['new token', 'ingest-token.json'], ...session, 404: e('no such server in the account') } },
  { ...op('Audit', 'session'), method: 'get', path: '/api/audit', summary: "The account's audit log, newest first, by actor and action if asked (audit.read)", query: 'query-audit.json',
    responses: { 200: ['page', 'audit-page.json'], ...session, 400: e('invalid query') } },
  { ...op('Maps', undefined), method: 'get', path: '/api/maps/tiles/{path}', summary: 'A map tile file from MAP_TILES_DIR (not rate-limited)', pathParams: { path: 'tile path, e.g. chernarusplus/0/0/0.png' },
    responses: { 200: ['the tile image'], 404: e('no such tile') } },
  ...trustControllerOperations,
];
