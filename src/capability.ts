// What a capability brings to the service, in one description its folder exports (capability.ts):
// its routers, its background jobs and the caches it keeps in the process. src/capabilities.ts
// lists them; the app mounts their routers, the worker schedules their jobs and src/deps.ts merges
// their caches. D is what the capability's routers and jobs use, so the composed deps must hold it.
import type Router from '@koa/router';
import type { Core } from './core.ts';
import type { AppState } from './http/context.ts';
import type { Job } from './job.ts';
import type { CacheDrops } from './store/invalidation.ts';

export interface Capability<D = unknown, C extends object = object> {
  /** The capability's folder under src/. */
  name: string;
  /** Its routers, in the order they must be tried (one that answers an agent before a session guard of the same paths). */
  routers?: (deps: D) => Router<AppState>[];
  jobs?: Job<D>[];
  /** The caches it keeps in the process, by name: they become deps.caches.<name>. */
  caches?: (core: Core, drops: CacheDrops) => C;
}

/**
 * The caches of a list of capabilities as one object type, each capability's merged in (an
 * intersection, so deps.caches.apiKeys keeps its own type): every C moved to a parameter position,
 * where inferring from a union of functions gives the intersection of their parameters.
 */
export type CachesOf<L extends readonly Capability<never, object>[]> = (
  L[number] extends infer Each ? (Each extends Capability<never, infer C> ? (caches: C) => void : never) : never
) extends (caches: infer All) => void
  ? All
  : never;
