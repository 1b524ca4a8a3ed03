// OpenAPI description of the trust routes: the pool and partner keys (controller, session), the
// public lookup and discovery, and the partner export.
import type { Operation } from '../http/openapi-operation.ts';

const e = (description: string) => [description, 'error.json'] as const;
const session = {
  401: e('no session (UNAUTHORIZED)'),
  403: e('csrf-mismatch, or the role lacks the permission (FORBIDDEN)'),
  429: e('rate limit (Retry-After)'),
};
const withBody = { ...session, 400: e('invalid body'), 415: e('not application/json') };
const entryId = { id: 'pool entry id (UUID)' };
const pool = { tag: 'Trust pool', security: 'session' as const };

export const trustControllerOperations: Operation[] = [
  {
    ...pool,
    method: 'post',
    path: '/api/trust/submissions',
    summary: "Submits a player to the community ban pool, from scratch or from one of the community's own bans (trust.submit)",
    body: 'trust-submission-create.json',
    responses: {
      201: ['the pending submission', 'trust-submission.json'],
      ...withBody,
      404: e('no such ban in the account'),
      409: e('the ban came from the pool or another community, was lifted, or is already submitted'),
    },
  },
  {
    ...pool,
    method: 'get',
    path: '/api/trust/submissions',
    summary: "Pool entries: every community's for network moderators (trust.moderate), the community's own for trust.submit",
    query: 'query-trust-submissions.json',
    responses: { 200: ['entries, newest first', 'trust-submission-list.json'], ...session, 400: e('invalid query') },
  },
  {
    ...pool,
    method: 'post',
    path: '/api/trust/submissions/{id}/approve',
    summary: 'Approves a pending submission: the entry becomes active (trust.moderate)',
    pathParams: entryId,
    responses: { 200: ['the entry', 'trust-submission.json'], ...session, 404: e('no such entry'), 409: e('the entry is not pending') },
  },
  {
    ...pool,
    method: 'post',
    path: '/api/trust/submissions/{id}/reject',
    summary: 'Rejects a pending submission (trust.moderate)',
    pathParams: entryId,
    responses: { 200: ['the entry', 'trust-submission.json'], ...session, 404: e('no such entry'), 409: e('the entry is not pending') },
  },
  {
    ...pool,
    method: 'post',
    path: '/api/trust/entries/{id}/overturn',
    summary: 'Overturns an active or expired entry (appeal upheld); it then counts for the player (trust.moderate)',
    pathParams: entryId,
    responses: {
      200: ['the entry', 'trust-submission.json'],
      ...session,
      404: e('no such entry'),
      409: e('the entry is neither active nor expired'),
    },
  },
  {
    tag: 'Partner keys',
    security: 'session',
    method: 'get',
    path: '/api/trust/partner-keys',
    summary: 'Partner keys of the trust export, without the keys themselves (partners.manage)',
    responses: { 200: ['keys', 'partner-key-list.json'], ...session },
  },
  {
    tag: 'Partner keys',
    security: 'session',
    method: 'post',
    path: '/api/trust/partner-keys',
    summary: 'Issues a partner key with a tier; the raw key (svcp_...) is shown once (partners.manage)',
    body: 'partner-key-create.json',
    responses: { 201: ['the key, shown once', 'partner-key-created.json'], ...withBody },
  },
  {
    tag: 'Partner keys',
    security: 'session',
    method: 'delete',
    path: '/api/trust/partner-keys/{id}',
    summary: 'Revokes a partner key at once (partners.manage)',
    pathParams: { id: 'partner key id (UUID)' },
    responses: { 204: ['revoked'], ...session, 404: e('no such key') },
  },
];

export const trustPublicOperations: Operation[] = [
  {
    method: 'get',
    path: '/api/v1/trust/{identifier}',
    tag: 'Trust',
    summary: 'The explainable trust score of a player; public, 60 per minute per IP (IPv6 per /64)',
    pathParams: {
      identifier: 'Steam64, STEAM_X:Y:Z, service UUID, DayZ ID, BattlEye GUID, console id, or a linked chat user id (discord:<snowflake>)',
    },
    responses: {
      200: ['the score; with signing configured, proof and the x-service-trust-proof header', 'trust-score.json'],
      400: e('malformed identifier'),
      404: e('unknown player (NOT_FOUND)'),
      429: e('rate exceeded; retryAfter 60'),
    },
  },
  {
    method: 'get',
    path: '/api/v1/trust/{identifier}/entries',
    tag: 'Trust',
    summary:
      "The pool entries behind a player's score (the public player page): community, category and state; never the submitting user, reason text or notes. Counts against the lookup's per-IP limit",
    pathParams: { identifier: 'any identifier the lookup takes' },
    responses: {
      200: ['the entries, newest first', 'trust-public-entries.json'],
      400: e('malformed identifier'),
      404: e('unknown player (NOT_FOUND)'),
      429: e('rate exceeded; retryAfter 60'),
    },
  },
  {
    method: 'get',
    path: '/.well-known/service-trust.json',
    tag: 'Trust',
    summary: 'Trust capability document: endpoints, score schema and bands, identifier kinds, reason categories, signing keys (JWKS)',
    responses: { 200: ['the document', 'trust-discovery.json'] },
  },
  {
    method: 'get',
    path: '/api/v1/trust/export',
    tag: 'Trust',
    security: 'partnerKey',
    query: 'query-trust-export.json',
    summary:
      'Change feed of the community ban pool: follow nextCursor to null, resume later with since = syncedThrough; overturned and expired rows are tombstones. Pages per minute by tier (basic 60, premium 300)',
    responses: {
      200: ['a page; with signing configured, proof over the digest of its rows', 'trust-export-page.json'],
      400: e('invalid query or cursor'),
      401: e('missing, unknown or revoked partner key (UNAUTHORIZED)'),
      429: e('rate exceeded; retryAfter 60'),
    },
  },
];
