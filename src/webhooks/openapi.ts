// OpenAPI description of the webhook routes (session, servers.manage).
import type { Operation } from '../http/openapi-operation.ts';

const e = (description: string) => [description, 'error.json'] as const;
const session = {
  401: e('no session (UNAUTHORIZED)'),
  403: e('csrf-mismatch, or the role lacks servers.manage (FORBIDDEN)'),
  429: e('rate limit (Retry-After)'),
};
const withBody = {
  ...session,
  400: e('invalid body, a refused url (with the reason), or a server not of the account'),
  415: e('not application/json'),
};
const common = { tag: 'Webhooks', security: 'session' as const };
const id = { id: 'webhook id (UUID)' };
const missing = { 404: e('no such webhook in the account') };

export const webhookOperations: Operation[] = [
  {
    ...common,
    method: 'get',
    path: '/api/webhooks',
    summary: "The account's webhook endpoints, with their state (paused and why, failing since, events waiting)",
    responses: { 200: ['endpoints', 'webhook-list.json'], ...session },
  },
  {
    ...common,
    method: 'post',
    path: '/api/webhooks',
    summary:
      'Adds an endpoint for the events named (https, public addresses only); a standard endpoint answers its signing secret, shown this once',
    body: 'webhook-create.json',
    responses: { 201: ['the endpoint (and its secret)', 'webhook-created.json'], ...withBody },
  },
  {
    ...common,
    method: 'get',
    path: '/api/webhooks/{id}',
    summary: 'One endpoint of the account',
    pathParams: id,
    responses: { 200: ['the endpoint', 'webhook.json'], ...session, ...missing },
  },
  {
    ...common,
    method: 'patch',
    path: '/api/webhooks/{id}',
    summary: "Changes an endpoint's url, events, servers or role to mention (Discord); paused true pauses it, false resumes it",
    pathParams: id,
    body: 'webhook-update.json',
    responses: { 200: ['the endpoint', 'webhook.json'], ...withBody, ...missing },
  },
  {
    ...common,
    method: 'delete',
    path: '/api/webhooks/{id}',
    summary: 'Deletes an endpoint with the events waiting for it and its deliveries',
    pathParams: id,
    responses: { 204: ['deleted'], ...session, ...missing },
  },
  {
    ...common,
    method: 'post',
    path: '/api/webhooks/{id}/rotate-secret',
    summary: 'A new signing secret for a standard endpoint, shown this once; the one before also signs for 24 h',
    pathParams: id,
    responses: {
      200: ['the endpoint and its new secret', 'webhook-created.json'],
      ...session,
      400: e('a discord endpoint has no secret'),
      ...missing,
    },
  },
  {
    ...common,
    method: 'post',
    path: '/api/webhooks/{id}/test',
    summary: 'Queues a test event (webhook.test) for the endpoint, behind the events already waiting',
    pathParams: id,
    responses: { 202: ['queued', 'webhook-test-queued.json'], ...session, ...missing },
  },
  {
    ...common,
    method: 'get',
    path: '/api/webhooks/{id}/deliveries',
    summary: "The endpoint's last 100 delivery attempts, newest first: status code, error, attempt, time",
    pathParams: id,
    responses: { 200: ['deliveries', 'webhook-deliveries.json'], ...session, ...missing },
  },
];
