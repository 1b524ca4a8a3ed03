// The operator capability: the runtime Data API switch and rebuilds over HTTP.
import type { Capability } from '../capability.ts';
import type { Core } from '../core.ts';
import type { ServerReadDeps } from '../stats/server-reads.ts';
import type { DataApiRuntime } from './data-api-switch.ts';
import { operatorRouter } from './operator.route.ts';

export const operatorCapability: Capability<Core & DataApiRuntime & ServerReadDeps> = {
  name: 'operator',
  routers: (deps) => [operatorRouter(deps)],
};
