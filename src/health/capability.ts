// The health capability: GET /api/health.
import type { Capability } from '../capability.ts';
import type { Core } from '../core.ts';
import { healthRouter } from './health.route.ts';

export const healthCapability: Capability<Core> = {
  name: 'health',
  routers: (deps) => [healthRouter(deps)],
};
