// OpenAPI description of the priority-queue routes (session).
import type { Operation } from '../http/openapi-operation.ts';

const e = (description: string) => [description, 'error.json'] as const;
const session = {
  401: e('no session (UNAUTHORIZED)'),
  403: e('csrf-mismatch, or the role lacks queue.manage (FORBIDDEN)'),
  429: e('rate limit (Retry-After)'),
};
const withBody = { ...session, 400: e('invalid body, or a serverId the account does not have'), 415: e('not application/json') };
const common = { tag: 'Priority queue', security: 'session' as const };
const entryId = { entryId: 'queue entry id (UUID)' };

export const queueOperations: Operation[] = [
  {
    ...common,
    method: 'get',
    path: '/api/priority-queue',
    summary: "The account's queue entries, newest first (queue.manage, or servers.read to read)",
    query: 'query-queue.json',
    responses: { 200: ['page of entries', 'queue-page.json'], ...session, 400: e('invalid query') },
  },
  {
    ...common,
    method: 'post',
    path: '/api/priority-queue',
    summary:
      'Queues a player on every server of the account or on serverIds; adding again with the same scope extends the entry; the priority files are synced',
    body: 'queue-entry-create.json',
    responses: { 201: ['new entry', 'queue-entry.json'], 200: ['the existing entry, extended', 'queue-entry.json'], ...withBody },
  },
  {
    ...common,
    method: 'patch',
    path: '/api/priority-queue/{entryId}',
    summary: "Changes an entry's name, comment or expiry; the priority files are synced",
    pathParams: entryId,
    body: 'queue-entry-update.json',
    responses: { 200: ['the entry', 'queue-entry.json'], ...withBody, 404: e('no such entry in the account') },
  },
  {
    ...common,
    method: 'delete',
    path: '/api/priority-queue/{entryId}',
    summary: 'Removes an entry; the priority files are synced',
    pathParams: entryId,
    responses: { 204: ['removed'], ...session, 404: e('no such entry in the account') },
  },
];
