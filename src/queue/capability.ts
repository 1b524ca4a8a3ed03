// The priority queue capability: its routes.
import type { Capability } from '../capability.ts';
import type { ServerReadDeps } from '../stats/server-reads.ts';
import type { TrustDeps } from '../trust/lookup.ts';
import { queueRouter } from './queue.route.ts';

export const queueCapability: Capability<TrustDeps & ServerReadDeps> = {
  name: 'queue',
  routers: (deps) => [queueRouter(deps)],
};
