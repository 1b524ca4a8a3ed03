// The bans capability: the bans in force an agent pulls, and the ban records' routes.
import type { Capability } from '../capability.ts';
import type { IngestTokenDeps } from '../ingest/ingest-token.ts';
import type { ServerOwnerDeps } from '../servers/server.ts';
import { activeBansRouter } from './active-bans.route.ts';
import type { BanDeps } from './bans.ts';
import { bansRouter } from './bans.route.ts';

export const bansCapability: Capability<ServerOwnerDeps & IngestTokenDeps & BanDeps> = {
  name: 'bans',
  routers: (deps) => [activeBansRouter(deps), bansRouter(deps)],
};
