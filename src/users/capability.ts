// The users capability: the controller's users and their routes.
import type { Capability } from '../capability.ts';
import type { Core } from '../core.ts';
import { usersRouter } from './users.route.ts';

export const usersCapability: Capability<Core> = {
  name: 'users',
  routers: (deps) => [usersRouter(deps)],
};
