// OpenAPI description of the chat-bot routes.
import type { Operation } from '../openapi/operation.ts';

const e = (description: string) => [description, 'error.json'] as const;
const session = { 401: e('no session (UNAUTHORIZED)'), 403: e('csrf-mismatch, or the role lacks users.manage (FORBIDDEN)'), 429: e('rate limit (Retry-After)') };
const chatUserId = { chatUserId: 'the chat-platform (Discord) user id, 17 to 20 digits' };

export const chatOperations: Operation[] = [
  { method: 'post', path: '/api/chat/action', tag: 'Chat bot', security: 'chatSignature', body: 'chat-action.json',
    summary: "Runs a chat bot's action for a chat user: signed calls with the user's mapped role, unsigned ones with the chat-bot role (CSRF-exempt; 120 a minute per IP)",
    responses: {
      200: ['the result, with a printable text', 'chat-action-result.json'], 400: e('unknown action, a missing serverId or a bad param (named)'),
      403: e('a signature that is stale, from the future, wrong or replayed (chat.sig-rejected), an unsigned call where only signed ones are accepted, or a role without the permission (chat.denied)'),
      404: e('no such server'), 415: e('not application/json'), 429: e('rate limit (Retry-After)'),
    } },
  { method: 'get', path: '/api/chat/user-roles', tag: 'Chat bot', security: 'session', summary: "The account's chat users and their roles (users.manage)",
    responses: { 200: ['mappings', 'chat-user-roles.json'], ...session } },
  { method: 'put', path: '/api/chat/user-roles/{chatUserId}', tag: 'Chat bot', security: 'session', pathParams: chatUserId, body: 'chat-user-role-set.json',
    summary: 'Sets or replaces the role a chat user acts with (users.manage; audit chat.user-role.set)',
    responses: { 200: ['the mapping', 'chat-user-role.json'], ...session, 400: e('unknown role or malformed chat user id'), 415: e('not application/json') } },
  { method: 'delete', path: '/api/chat/user-roles/{chatUserId}', tag: 'Chat bot', security: 'session', pathParams: chatUserId,
    summary: 'Removes the mapping: the chat user falls back to the chat-bot role (users.manage; audit chat.user-role.remove)',
    responses: { 204: ['removed'], ...session, 400: e('malformed chat user id'), 404: e('no mapping for that chat user') } },
];
