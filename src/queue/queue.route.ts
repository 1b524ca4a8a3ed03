// /api/priority-queue: list (queue.manage, or servers.read to read), add or extend, change, delete (queue.manage).
import Router from '@koa/router';
import type { ServerReadDeps } from '../stats/server-reads.ts';
import type { TrustDeps } from '../trust/lookup.ts';
import type { AppContext, AppState } from '../http/context.ts';
import { badRequest, notFound } from '../http/errors.ts';
import { bodyOf, jsonBody } from '../http/body.ts';
import { queryParser } from '../http/schemas.ts';
import { isUuid } from '../http/uuid.ts';
import { authenticate, principalOf, requireAnyPermission, requirePermission } from '../auth/authenticate.ts';
import { actorOf } from '../audit/actor.ts';
import { listQueueEntries } from './queue.repo.ts';
import { UnknownServers, changeQueueEntry, queuePlayer, queueEntryView, removeQueueEntry } from './queue.ts';
import type { QueueEntry, QueuePage } from '../http/schema-types.ts';

const createBody = bodyOf('queue-entry-create.json');
const updateBody = bodyOf('queue-entry-update.json');
const listQuery = queryParser('query-queue.json');

const entryIdOf = (ctx: AppContext) => {
  const id = ctx.params.entryId!;
  if (!isUuid(id)) throw notFound('queue entry');
  return id;
};

function checkFuture(expiresAt: string | null | undefined, nowMs: number): void {
  if (typeof expiresAt === 'string' && Date.parse(expiresAt) <= nowMs) throw badRequest('body expiresAt must be in the future');
}

export function queueRouter(deps: TrustDeps & ServerReadDeps): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api/priority-queue', sensitive: true });
  router.use(authenticate(deps));
  const manage = requirePermission('queue.manage');
  const now = () => deps.clock.now();

  router.get('/', requireAnyPermission('queue.manage', 'servers.read'), async (ctx) => {
    const search = listQuery(ctx.query);
    const { entries, total } = await listQueueEntries(deps.db, principalOf(ctx).accountId, {
      ...search,
      serverId: search.serverId?.toLowerCase(),
    });
    ctx.body = {
      entries: entries.map((e) => ({ ...queueEntryView(e, now()), seenName: e.seenName })),
      total,
      limit: search.limit,
      offset: search.offset,
    } satisfies QueuePage;
  });

  router.post('/', manage, jsonBody, async (ctx) => {
    const input = createBody(ctx);
    checkFuture(input.expiresAt, now());
    try {
      const { entry, created } = await queuePlayer(deps, principalOf(ctx).accountId, input, actorOf(ctx));
      ctx.status = created ? 201 : 200;
      ctx.body = queueEntryView(entry, now()) satisfies QueueEntry;
    } catch (err) {
      if (err instanceof UnknownServers) throw badRequest(`body serverIds: ${err.message}`);
      throw err;
    }
  });

  router.patch('/:entryId', manage, jsonBody, async (ctx) => {
    const patch = updateBody(ctx);
    checkFuture(patch.expiresAt, now());
    const entry = await changeQueueEntry(deps, principalOf(ctx).accountId, entryIdOf(ctx), patch, actorOf(ctx));
    if (!entry) throw notFound('queue entry');
    ctx.body = queueEntryView(entry, now()) satisfies QueueEntry;
  });

  router.delete('/:entryId', manage, async (ctx) => {
    const entry = await removeQueueEntry(deps, principalOf(ctx).accountId, entryIdOf(ctx), actorOf(ctx));
    if (!entry) throw notFound('queue entry');
    ctx.status = 204;
  });

  return router;
}
