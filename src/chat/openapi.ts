// OpenAPI description of the chat-bot routes.
import type { Operation } from '../http/openapi-operation.ts';

const e = (description: string) => [description, 'error.json'] as const;
const session = {
  401: e('no session (UNAUTHORIZED)'),
  403: e('csrf-mismatch, or the role lacks users.manage (FORBIDDEN)'),
  429: e('rate limit (Retry-After)'),
};
const chatUserId = { chatUserId: 'the chat-platform (Discord) user id, 17 to 20 digits' };

export const chatOperations: Operation[] = [
  {
    method: 'post',
    path: '/api/chat/action',
    tag: 'Chat bot',
    security: 'chatSignature',
    body: 'chat-action.json',
    summary:
      "Runs a community's chat bot action for a chat user: a call signed by a bot (named in X-Chat-Bot; none: the operator's, CHAT_SIGNING_SECRET) acts in the bot's community with the user's mapped role; an unsigned one in its server's community (else the operator's) with the chat-bot role (CSRF-exempt; 120 a minute per IP)",
    responses: {
      200: ['the result, with a printable text', 'chat-action-result.json'],
      400: e('unknown action, a missing serverId or a bad param (named)'),
      403: e(
        'a signature that is stale, from the future, wrong or replayed (chat.sig-rejected), an unsigned call where only signed ones are accepted, or a role without the permission (chat.denied)',
      ),
      404: e("no such server in the call's community"),
      415: e('not application/json'),
      429: e('rate limit (Retry-After)'),
    },
  },
  {
    method: 'get',
    path: '/api/chat/bots',
    tag: 'Chat bot',
    security: 'session',
    summary: "The community's chat bots, never their secrets (users.manage)",
    responses: { 200: ['bots', 'chat-bot-list.json'], ...session },
  },
  {
    method: 'post',
    path: '/api/chat/bots',
    tag: 'Chat bot',
    security: 'session',
    body: 'chat-bot-create.json',
    summary: 'Adds a chat bot; its secret is shown once (users.manage; audit chat.bot.create)',
    responses: {
      201: ['the bot and its secret', 'chat-bot-created.json'],
      ...session,
      400: e('invalid body'),
      415: e('not application/json'),
    },
  },
  {
    method: 'post',
    path: '/api/chat/bots/{id}/secret',
    tag: 'Chat bot',
    security: 'session',
    pathParams: { id: 'bot id (UUID)' },
    summary: "Rotates the bot's secret, shown once; the one before is accepted 24 h more (users.manage; audit chat.bot.rotate)",
    responses: { 200: ['the bot and its new secret', 'chat-bot-created.json'], ...session, 404: e('no such bot in the account') },
  },
  {
    method: 'delete',
    path: '/api/chat/bots/{id}',
    tag: 'Chat bot',
    security: 'session',
    pathParams: { id: 'bot id (UUID)' },
    summary: 'Removes the bot: its calls are refused from now on (users.manage; audit chat.bot.delete)',
    responses: { 204: ['removed'], ...session, 404: e('no such bot in the account') },
  },
  {
    method: 'get',
    path: '/api/chat/settings',
    tag: 'Chat bot',
    security: 'session',
    summary: 'Whether the community refuses unsigned chat calls (users.manage)',
    responses: { 200: ['the settings', 'chat-settings.json'], ...session },
  },
  {
    method: 'put',
    path: '/api/chat/settings',
    tag: 'Chat bot',
    security: 'session',
    body: 'chat-settings.json',
    summary: 'Refuses (or accepts) unsigned chat calls in the community (users.manage; audit chat.settings.set)',
    responses: { 200: ['the settings', 'chat-settings.json'], ...session, 400: e('invalid body'), 415: e('not application/json') },
  },
  {
    method: 'get',
    path: '/api/chat/user-roles',
    tag: 'Chat bot',
    security: 'session',
    summary: "The account's chat users and their roles (users.manage)",
    responses: { 200: ['mappings', 'chat-user-roles.json'], ...session },
  },
  {
    method: 'put',
    path: '/api/chat/user-roles/{chatUserId}',
    tag: 'Chat bot',
    security: 'session',
    pathParams: chatUserId,
    body: 'chat-user-role-set.json',
    summary: 'Sets or replaces the role a chat user acts with (users.manage; audit chat.user-role.set)',
    responses: {
      200: ['the mapping', 'chat-user-role.json'],
      ...session,
      400: e('unknown role or malformed chat user id'),
      415: e('not application/json'),
    },
  },
  {
    method: 'delete',
    path: '/api/chat/user-roles/{chatUserId}',
    tag: 'Chat bot',
    security: 'session',
    pathParams: chatUserId,
    summary: 'Removes the mapping: the chat user falls back to the chat-bot role (users.manage; audit chat.user-role.remove)',
    responses: { 204: ['removed'], ...session, 400: e('malformed chat user id'), 404: e('no mapping for that chat user') },
  },
];
