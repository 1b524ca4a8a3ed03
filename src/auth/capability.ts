// The authentication capability: the first admin's setup, and login, logout and the session.
import type { Capability } from '../capability.ts';
import type { Core } from '../core.ts';
import { authRouter } from './auth.route.ts';
import { setupRouter } from './setup.route.ts';

export const authCapability: Capability<Core> = {
  name: 'auth',
  routers: (deps) => [setupRouter(deps), authRouter(deps)],
};
