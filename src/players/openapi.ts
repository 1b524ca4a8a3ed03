// OpenAPI description of the player routes (session; servers.read to read, bans.manage to write notes and the watch flag).
import type { Operation } from '../http/openapi-operation.ts';

const e = (description: string) => [description, 'error.json'] as const;
const session = {
  401: e('no session (UNAUTHORIZED)'),
  403: e('csrf-mismatch, or the role lacks the permission (FORBIDDEN)'),
  429: e('rate limit (Retry-After)'),
};
const player = {
  ...session,
  400: e('the identifier is no id form (Steam64, STEAM_X:Y:Z, DayZ ID, BattlEye GUID, console id, service UUID, discord:<snowflake>)'),
  404: e('no player the account may see has that id'),
};
const common = { tag: 'Players', security: 'session' as const };
const identifier = {
  identifier: 'the player: any id form (Steam64, STEAM_X:Y:Z, DayZ ID, BattlEye GUID, console id, service UUID, discord:<id>)',
};

export const playerOperations: Operation[] = [
  {
    ...common,
    method: 'get',
    path: '/api/players',
    summary:
      "Searches the account's players (seen on its live servers) by one field: an id in any form exactly, or the start of a name (any case, current or earlier); at most limit players, no cursor (servers.read)",
    query: 'query-player-search.json',
    responses: {
      200: ['matching players', 'player-search.json'],
      ...session,
      400: e('q missing, only spaces, or too long; limit out of range'),
    },
  },
  {
    ...common,
    method: 'get',
    path: '/api/players/{identifier}',
    summary:
      "A player's profile in the account: ids, names, per-server totals, sessions and newest kills, bans and queue entries with their history, trust score and pool entries, notes, watch flag (servers.read)",
    pathParams: identifier,
    responses: { 200: ['the profile', 'player-profile.json'], ...player },
  },
  {
    ...common,
    method: 'get',
    path: '/api/players/{identifier}/notes',
    summary: "The account's private notes about the player, newest first (servers.read)",
    pathParams: identifier,
    responses: { 200: ['notes', 'player-note-list.json'], ...player },
  },
  {
    ...common,
    method: 'post',
    path: '/api/players/{identifier}/notes',
    summary: 'Adds a private note about the player (bans.manage); audited as player.note.add (the text is not in the audit entry)',
    pathParams: identifier,
    body: 'player-note-create.json',
    responses: {
      201: ['the note', 'player-note.json'],
      ...player,
      400: e('the identifier is no id form, or the body is invalid (empty, only spaces, over 2,000 characters)'),
      409: e('the account keeps 200 notes about the player already'),
      415: e('not application/json'),
    },
  },
  {
    ...common,
    method: 'delete',
    path: '/api/players/{identifier}/notes/{noteId}',
    summary: 'Removes a note (bans.manage); audited as player.note.remove',
    pathParams: { ...identifier, noteId: 'note id (UUID)' },
    responses: { 204: ['removed'], ...player, 404: e('no such player, or no such note of the account about the player') },
  },
  {
    ...common,
    method: 'post',
    path: '/api/players/{identifier}/watch',
    summary:
      "Watches the player: the dashboard's online lists (GET /api/servers/{id}/players) mark them (bans.manage); audited as player.watch when it was not set",
    pathParams: identifier,
    responses: { 200: ['the flag', 'player-watch.json'], ...player },
  },
  {
    ...common,
    method: 'delete',
    path: '/api/players/{identifier}/watch',
    summary: 'Stops watching the player (bans.manage); audited as player.unwatch when it was set',
    pathParams: identifier,
    responses: { 200: ['the flag, cleared', 'player-watch.json'], ...player },
  },
];
