// The store webhook capability: the payment store's webhook.
import type { Capability } from '../capability.ts';
import type { ServerReadDeps } from '../stats/server-reads.ts';
import type { TrustDeps } from '../trust/lookup.ts';
import { storeWebhookRouter } from './webhook.route.ts';

export const storeWebhookCapability: Capability<TrustDeps & ServerReadDeps> = {
  name: 'store-webhook',
  routers: (deps) => [storeWebhookRouter(deps)],
};
