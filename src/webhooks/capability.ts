// The webhooks capability: a community's endpoints, and the job that delivers their outbox.
import type { Capability } from '../capability.ts';
import type { DeliveryDeps } from './delivery.ts';
import { deliverWebhooks } from './delivery.ts';
import type { EndpointDeps } from './endpoints.ts';
import { webhooksRouter } from './webhooks.route.ts';

export const webhooksCapability: Capability<EndpointDeps & DeliveryDeps> = {
  name: 'webhooks',
  routers: (deps) => [webhooksRouter(deps)],
  // Every second, the endpoints with an event due, each under a lock of its own (so runs overlap,
  // and a slow endpoint delays no other).
  jobs: [{ name: 'deliver-webhooks', rule: '* * * * * *', lockMs: 0, lock: false, run: deliverWebhooks }],
};
