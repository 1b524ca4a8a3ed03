// The Data API capability: its routes, and the rate leases its keys' limits are taken from.
import type { Capability } from '../capability.ts';
import type { ApiKeyDeps } from '../accounts/api-key.ts';
import { rateLeaseCaches } from '../http/rate-leases.ts';
import type { LeaseDeps } from '../http/rate-leases.ts';
import type { ServerOwnerDeps } from '../servers/server.ts';
import { dataApiRouter } from './router.ts';

export const dataApiCapability: Capability<ServerOwnerDeps & ApiKeyDeps & LeaseDeps, ReturnType<typeof rateLeaseCaches>> = {
  name: 'data-api',
  routers: (deps) => [dataApiRouter(deps)],
  caches: rateLeaseCaches,
};
