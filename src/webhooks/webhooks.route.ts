// /api/webhooks (servers.manage): a community's endpoints for its outbound events, their test
// event, a standard endpoint's secret (shown at creation and rotation only), and the last
// deliveries of each. Another account's endpoint is the same 404 as none.
import Router from '@koa/router';
import type { AppContext, AppState } from '../http/context.ts';
import { notFound } from '../http/errors.ts';
import { bodyOf, jsonBody } from '../http/body.ts';
import { isUuid } from '../http/uuid.ts';
import { authenticate, principalOf, requirePermission } from '../auth/authenticate.ts';
import type { Webhook, WebhookCreated, WebhookDeliveries, WebhookList, WebhookTestQueued } from '../http/schema-types.ts';
import { findEndpoint, listEndpoints } from './endpoint.repo.ts';
import type { Endpoint } from './endpoint.repo.ts';
import { lastDeliveries, waitingCounts } from './outbox.repo.ts';
import { changeEndpoint, createEndpoint, endpointView, queueTestEvent, removeEndpoint, rotateSecret } from './endpoints.ts';
import type { EndpointDeps } from './endpoints.ts';

const createBody = bodyOf('webhook-create.json');
const updateBody = bodyOf('webhook-update.json');

const endpointIdOf = (ctx: AppContext) => {
  const id = ctx.params.id!;
  if (!isUuid(id)) throw notFound('webhook');
  return id;
};

export function webhooksRouter(deps: EndpointDeps): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api/webhooks', sensitive: true });
  router.use(authenticate(deps), requirePermission('servers.manage'));

  const views = async (endpoints: Endpoint[]) => {
    const waiting = await waitingCounts(
      deps.db,
      endpoints.map((e) => e.id),
    );
    return endpoints.map((e) => endpointView(e, waiting.get(e.id) ?? 0));
  };
  const ownEndpoint = async (ctx: AppContext) => {
    const endpoint = await findEndpoint(deps.db, principalOf(ctx).accountId, endpointIdOf(ctx));
    if (!endpoint) throw notFound('webhook');
    return endpoint;
  };

  router.get('/', async (ctx) => {
    ctx.body = { webhooks: await views(await listEndpoints(deps.db, principalOf(ctx).accountId)) } satisfies WebhookList;
  });

  router.post('/', jsonBody, async (ctx) => {
    const { endpoint, secret } = await createEndpoint(deps, ctx, createBody(ctx));
    ctx.status = 201;
    ctx.body = { webhook: endpointView(endpoint, 0), ...(secret ? { secret } : {}) } satisfies WebhookCreated;
  });

  router.get('/:id', async (ctx) => {
    ctx.body = (await views([await ownEndpoint(ctx)]))[0]! satisfies Webhook;
  });

  router.patch('/:id', jsonBody, async (ctx) => {
    const patch = updateBody(ctx);
    const endpoint = await changeEndpoint(deps, ctx, endpointIdOf(ctx), patch);
    if (!endpoint) throw notFound('webhook');
    ctx.body = (await views([endpoint]))[0]! satisfies Webhook;
  });

  router.delete('/:id', async (ctx) => {
    if (!(await removeEndpoint(deps, ctx, endpointIdOf(ctx)))) throw notFound('webhook');
    ctx.status = 204;
  });

  router.post('/:id/rotate-secret', async (ctx) => {
    const rotated = await rotateSecret(deps, ctx, endpointIdOf(ctx));
    if (!rotated) throw notFound('webhook');
    ctx.body = { webhook: (await views([rotated.endpoint]))[0]!, secret: rotated.secret } satisfies WebhookCreated;
  });

  router.post('/:id/test', async (ctx) => {
    const eventId = await queueTestEvent(deps, ctx, endpointIdOf(ctx));
    if (!eventId) throw notFound('webhook');
    ctx.status = 202;
    ctx.body = { eventId } satisfies WebhookTestQueued;
  });

  router.get('/:id/deliveries', async (ctx) => {
    const endpoint = await ownEndpoint(ctx);
    const deliveries = await lastDeliveries(deps.db, endpoint.id);
    ctx.body = { deliveries: deliveries.map(({ id: _, ...d }) => d) } satisfies WebhookDeliveries;
  });

  return router;
}
