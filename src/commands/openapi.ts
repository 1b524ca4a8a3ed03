// OpenAPI description of agent commands: what admins ask for (session), what the agent calls
// (ingest token), the restart schedules, and the active bans the agent enforces.
import type { Operation } from '../http/openapi-operation.ts';

const e = (description: string) => [description, 'error.json'] as const;
const server = { id: 'server id (UUID)' };
const session = {
  401: e('no session (UNAUTHORIZED)'),
  403: e('csrf-mismatch, or the role lacks the permission (FORBIDDEN)'),
  429: e('rate limit (Retry-After)'),
  404: e('no such server in the account'),
};
const withBody = { ...session, 400: e('invalid body'), 415: e('not application/json') };
const agent = { 401: e('missing or invalid ingest token'), 429: e('ingest rate exceeded (Retry-After)') };
const control = (path: string, body: NonNullable<Operation['body']>, summary: string): Operation => ({
  method: 'post',
  path: `/api/servers/{id}/${path}`,
  tag: 'Server commands',
  security: 'session',
  pathParams: server,
  body,
  summary,
  responses: { 202: ["the command, pending until the server's agent takes it", 'server-command.json'], ...withBody },
});

export const commandOperations: Operation[] = [
  control('restart', 'server-restart.json', 'Restarts the server through its agent: warnings, lock, files, shutdown (servers.control)'),
  control('messages', 'server-message.json', 'Sends a message to every player on the server through its agent (servers.control)'),
  control('kick', 'server-kick.json', 'Kicks a player from the server through its agent (servers.control)'),
  {
    method: 'get',
    path: '/api/servers/{id}/commands',
    tag: 'Server commands',
    security: 'session',
    pathParams: server,
    query: 'query-commands.json',
    summary: "The server's commands, newest first, with their state and the agent's answer (servers.read or servers.control)",
    responses: { 200: ['page', 'server-command-list.json'], ...session, 400: e('invalid query') },
  },
  {
    method: 'get',
    path: '/api/servers/{id}/commands/{commandId}',
    tag: 'Server commands',
    security: 'session',
    pathParams: { ...server, commandId: 'command id (UUID)' },
    summary: 'One command (servers.read or servers.control)',
    responses: { 200: ['the command', 'server-command.json'], ...session, 404: e('no such command of that server') },
  },
  {
    method: 'get',
    path: '/api/servers/{id}/restart-schedule',
    tag: 'Server commands',
    security: 'session',
    pathParams: server,
    summary: "The server's scheduled restarts (servers.read or servers.control)",
    responses: { 200: ['the schedule', 'restart-schedule.json'], ...session, 404: e('no such server, or no schedule') },
  },
  {
    method: 'put',
    path: '/api/servers/{id}/restart-schedule',
    tag: 'Server commands',
    security: 'session',
    pathParams: server,
    body: 'restart-schedule-set.json',
    summary:
      "Sets the times of day (in the server's zone) the server restarts at; each restart is queued warningSeconds before (servers.control)",
    responses: { 200: ['the schedule', 'restart-schedule.json'], ...withBody },
  },
  {
    method: 'delete',
    path: '/api/servers/{id}/restart-schedule',
    tag: 'Server commands',
    security: 'session',
    pathParams: server,
    summary: 'Removes the schedule (servers.control)',
    responses: { 204: ['removed'], ...session, 404: e('no such server, or no schedule') },
  },
  {
    method: 'get',
    path: '/api/servers/{serverId}/commands/next',
    tag: 'Agent',
    security: 'ingestToken',
    pathParams: { serverId: 'server id (UUID)' },
    query: 'query-command-wait.json',
    summary:
      "The agent's long poll: the server's waiting commands, oldest first, handed to this agent (now sent); waits up to `wait` seconds for one",
    responses: { 200: ['commands', 'agent-commands.json'], 204: ['none came within the wait'], 400: e('invalid query'), ...agent },
  },
  {
    method: 'post',
    path: '/api/servers/{serverId}/commands/{commandId}/result',
    tag: 'Agent',
    security: 'ingestToken',
    pathParams: { serverId: 'server id (UUID)', commandId: 'command id (UUID)' },
    body: 'command-result.json',
    summary: "The agent's answer to a command it was handed (a repeated answer is taken as it was)",
    responses: {
      200: ['the command', 'server-command.json'],
      400: e('invalid body'),
      404: e('no such command of that server'),
      409: e('not handed yet, or answered otherwise already'),
      415: e('not application/json'),
      ...agent,
    },
  },
  {
    method: 'get',
    path: '/api/servers/{serverId}/bans/active',
    tag: 'Agent',
    security: 'ingestToken',
    pathParams: { serverId: 'server id (UUID)' },
    summary:
      'The bans in force on the server with every id form known, for the agent to kick a banned player on join; ETag / If-None-Match',
    responses: { 200: ['the bans', 'active-bans.json'], 304: ['unchanged since the ETag sent'], ...agent },
  },
];
