// The limits capability: GET /api/limits.
import type { Capability } from '../capability.ts';
import type { Core } from '../core.ts';
import { limitsRouter } from './limits.route.ts';

export const limitsCapability: Capability<Core> = {
  name: 'limits',
  routers: (deps) => [limitsRouter(deps)],
};
