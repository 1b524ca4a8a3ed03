// The trust network capability: the pool, the public and partner API, discovery, partner keys,
// the expiry of entries, and the cache of trust scores.
import type { Capability } from '../capability.ts';
import { trustDiscoveryRouter } from './discovery.route.ts';
import { expireTrustEntries } from './expiry.ts';
import { trustScoreCaches } from './lookup.ts';
import type { TrustDeps } from './lookup.ts';
import { partnerKeysRouter } from './partner-keys.route.ts';
import { trustPoolRouter } from './pool.route.ts';
import { trustApiRouter } from './router.ts';

export const trustCapability: Capability<TrustDeps, ReturnType<typeof trustScoreCaches>> = {
  name: 'trust',
  routers: (deps) => [trustPoolRouter(deps), trustApiRouter(deps), trustDiscoveryRouter(deps), partnerKeysRouter(deps)],
  jobs: [{ name: 'expire-trust-entries', rule: '*/30 * * * * *', lockMs: 5 * 60_000, run: expireTrustEntries }],
  caches: (core, drops) => trustScoreCaches(core.config, drops),
};
