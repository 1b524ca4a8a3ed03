// The servers capability: game servers and their views, the pruning of metrics samples, and the
// cache of server owners.
import type { Capability } from '../capability.ts';
import { pruneMetricsSamples } from './metrics.ts';
import { serverOwnerCaches } from './server.ts';
import type { ServerOwnerDeps } from './server.ts';
import { serverViewsRouter } from './server-views.route.ts';
import { serversRouter } from './servers.route.ts';

export const serversCapability: Capability<ServerOwnerDeps, ReturnType<typeof serverOwnerCaches>> = {
  name: 'servers',
  routers: (deps) => [serversRouter(deps), serverViewsRouter(deps)],
  jobs: [
    // Status samples of the dashboard's chart, past their 30 days.
    { name: 'prune-metrics-samples', rule: '23 * * * *', lockMs: 10 * 60_000, run: pruneMetricsSamples },
  ],
  caches: (core, drops) => serverOwnerCaches(core.config, drops),
};
