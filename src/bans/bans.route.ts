// /api/bans: search and read (bans.manage, or servers.read: viewers read), create, change, lift
// (DELETE) and import by shareable id (bans.manage).
import Router from '@koa/router';
import type { BanDeps } from './bans.ts';
import type { AppContext, AppState } from '../http/context.ts';
import { badRequest, notFound } from '../http/errors.ts';
import { bodyOf, jsonBody } from '../http/body.ts';
import { queryParser } from '../http/schemas.ts';
import { isUuid } from '../http/uuid.ts';
import { authenticate, principalOf, requireAnyPermission, requirePermission } from '../auth/authenticate.ts';
import { findBan, searchBans } from './ban.repo.ts';
import { banView, changeBan, createBan, importBan, removeBan } from './bans.ts';
import { actorOf } from '../audit/actor.ts';
import type { BanRecord, BanRecordPage } from '../http/schema-types.ts';

const createBody = bodyOf('ban-create.json');
const updateBody = bodyOf('ban-update.json');
const importBody = bodyOf('ban-import.json');
const searchQuery = queryParser('query-ban-search.json');

const banIdOf = (ctx: AppContext) => {
  const id = ctx.params.banId!;
  if (!isUuid(id)) throw notFound('ban');
  return id;
};

/** An expiry in the past would make a ban that is never in force: refused. */
function checkFuture(expiresAt: string | null | undefined, nowMs: number): void {
  if (typeof expiresAt === 'string' && Date.parse(expiresAt) <= nowMs) throw badRequest('body expiresAt must be in the future');
}

export function bansRouter(deps: BanDeps): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api/bans', sensitive: true });
  router.use(authenticate(deps));
  const read = requireAnyPermission('bans.manage', 'servers.read');
  const manage = requirePermission('bans.manage');
  const now = () => deps.clock.now();

  router.get('/', read, async (ctx) => {
    const search = searchQuery(ctx.query);
    const { bans, total } = await searchBans(deps.db, principalOf(ctx).accountId, search, new Date(now()).toISOString());
    ctx.body = { bans: bans.map((b) => banView(b, now())), total, limit: search.limit, offset: search.offset } satisfies BanRecordPage;
  });

  router.post('/', manage, jsonBody, async (ctx) => {
    const input = createBody(ctx);
    checkFuture(input.expiresAt, now());
    const ban = await createBan(deps, principalOf(ctx).accountId, input, actorOf(ctx));
    ctx.status = 201;
    ctx.body = banView(ban, now()) satisfies BanRecord;
  });

  router.post('/import', manage, jsonBody, async (ctx) => {
    const { banId } = importBody(ctx);
    const ban = await importBan(deps, principalOf(ctx).accountId, banId.toLowerCase(), actorOf(ctx));
    if (!ban) throw notFound('shared ban in force');
    ctx.status = 201;
    ctx.body = banView(ban, now()) satisfies BanRecord;
  });

  router.get('/:banId', read, async (ctx) => {
    const ban = await findBan(deps.db, principalOf(ctx).accountId, banIdOf(ctx));
    if (!ban) throw notFound('ban');
    ctx.body = banView(ban, now()) satisfies BanRecord;
  });

  router.patch('/:banId', manage, jsonBody, async (ctx) => {
    const patch = updateBody(ctx);
    checkFuture(patch.expiresAt, now());
    const ban = await changeBan(deps, principalOf(ctx).accountId, banIdOf(ctx), patch, actorOf(ctx));
    if (!ban) throw notFound('ban');
    ctx.body = banView(ban, now()) satisfies BanRecord;
  });

  router.delete('/:banId', manage, async (ctx) => {
    const ban = await removeBan(deps, principalOf(ctx).accountId, banIdOf(ctx), actorOf(ctx));
    if (!ban) throw notFound('ban');
    ctx.body = banView(ban, now()) satisfies BanRecord;
  });

  return router;
}
