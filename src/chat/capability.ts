// The chat capability: the bots' action route, the chat users' roles and the bots themselves.
import type { Capability } from '../capability.ts';
import type { BanDeps } from '../bans/bans.ts';
import type { ServerOwnerDeps } from '../servers/server.ts';
import { chatBotsRouter } from './bots.route.ts';
import { chatActionRouter } from './chat.route.ts';
import { chatUserRolesRouter } from './user-roles.route.ts';

export const chatCapability: Capability<ServerOwnerDeps & BanDeps> = {
  name: 'chat',
  routers: (deps) => [chatActionRouter(deps), chatUserRolesRouter(deps), chatBotsRouter(deps)],
};
