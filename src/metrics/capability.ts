// The metrics capability: GET /metrics (Prometheus text, every web process's figures combined).
import type { Capability } from '../capability.ts';
import type { Core } from '../core.ts';
import { metricsRouter } from './metrics.route.ts';

export const metricsCapability: Capability<Core> = {
  name: 'metrics',
  routers: (deps) => [metricsRouter(deps)],
};
