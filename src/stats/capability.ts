// The stats capability: no route or job of its own; the cache of each server's reads, which the
// Data API, the dashboard's views and ingestion share.
import type { Capability } from '../capability.ts';
import { serverReadCaches } from './server-reads.ts';

export const statsCapability: Capability<unknown, ReturnType<typeof serverReadCaches>> = {
  name: 'stats',
  caches: (core, drops) => serverReadCaches(core.config, drops),
};
