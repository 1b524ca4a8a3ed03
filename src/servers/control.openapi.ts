// OpenAPI description of the start/restart routes (session, servers.control).
import type { Operation } from '../openapi/operation.ts';

const e = (description: string) => [description, 'error.json'] as const;
const session = { 401: e('no session (UNAUTHORIZED)'), 403: e('csrf-mismatch, or the role lacks servers.control (FORBIDDEN)'), 429: e('rate limit (Retry-After)') };
const control = (action: 'start' | 'restart'): Operation => ({
  method: 'post', path: `/api/servers/{id}/${action}`, tag: 'Servers', security: 'session', pathParams: { id: 'server id (UUID)' },
  summary: `Syncs the server's ban and priority files, then runs its restart command (servers.control); waits up to RESTART_WAIT_MS for the outcome`,
  responses: { 200: ['finished (done or failed), with exit code and output tail', 'server-command.json'], 202: ['still pending or running; poll the command', 'server-command.json'], ...session, 404: e('no such server in the account') },
});

export const serverControlOperations: Operation[] = [
  control('start'),
  control('restart'),
  { method: 'get', path: '/api/servers/{id}/commands/{commandId}', tag: 'Servers', security: 'session', pathParams: { id: 'server id (UUID)', commandId: 'command id (UUID)' },
    summary: 'A start or restart and its outcome (servers.control or servers.read)', responses: { 200: ['the command', 'server-command.json'], ...session, 404: e('no such command of that server') } },
];
