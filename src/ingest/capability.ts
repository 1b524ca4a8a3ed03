// The ingestion capability: the agents' events route, the upkeep of event claims, and the caches
// of ingest tokens and of merges already checked.
import type { Capability } from '../capability.ts';
import { keepEventClaims } from './event-claims.ts';
import { ingestCaches } from './ingest.ts';
import type { IngestDeps } from './ingest.ts';
import { ingestTokenCaches } from './ingest-token.ts';
import type { IngestTokenDeps } from './ingest-token.ts';
import { ingestRouter } from './ingest.route.ts';
import type { Core } from '../core.ts';

type IngestCaches = ReturnType<typeof ingestTokenCaches> & ReturnType<typeof ingestCaches>;

export const ingestCapability: Capability<Core & IngestDeps & IngestTokenDeps, IngestCaches> = {
  name: 'ingest',
  routers: (deps) => [ingestRouter(deps)],
  jobs: [
    // Event claims (src/ingest/event-claims.ts): the coming days' partitions added, the expired dropped.
    { name: 'keep-event-claims', rule: '17 * * * *', lockMs: 10 * 60_000, run: keepEventClaims },
  ],
  caches: (core, drops) => ({ ...ingestTokenCaches(core, drops), ...ingestCaches() }),
};
