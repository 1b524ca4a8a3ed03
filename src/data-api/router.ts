// The Data API under /api/v1/data: read-only, scoped to the API key's account. What it reads of
// PostgreSQL comes from the read replica when there is one (src/store/read-view.ts), except the
// killfeed, which pages by a bare date-time and so reads the primary (docs/decisions.md).
import Router from '@koa/router';
import type { LeaseDeps } from '../http/rate-leases.ts';
import type { ApiKeyDeps } from '../accounts/api-key.ts';
import type { ServerOwnerDeps } from '../servers/server.ts';
import type { AppState } from '../http/context.ts';
import { notFound } from '../http/errors.ts';
import { queryParser } from '../http/schemas.ts';
import { clampLimit, dataApiAccess, keyOf, ownedServerId } from './access.ts';
import { syncedBans } from '../bans/ban-list.repo.ts';
import { killfeedPage } from './killfeed.ts';
import { leaderboardPage } from './leaderboard.ts';
import { onlinePage } from './online.ts';
import { accountServers, ownedServerStatusBody } from './servers.ts';
import { isUuid } from '../http/uuid.ts';
import type { BanList, ServerList } from '../http/schema-types.ts';
import { readView } from '../store/read-view.ts';

const leaderboardQuery = queryParser('query-leaderboard.json');
const killsQuery = queryParser('query-kills.json');
const bansQuery = queryParser('query-bans.json');

export function dataApiRouter(deps: ServerOwnerDeps & ApiKeyDeps & LeaseDeps): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api/v1/data', sensitive: true });
  router.use(dataApiAccess(deps));

  router.get('/servers', async (ctx) => {
    ctx.body = { servers: await accountServers(deps, keyOf(ctx).accountId) } satisfies ServerList;
  });

  router.get('/servers/:serverId', async (ctx) => {
    const serverId = ctx.params.serverId!;
    const status = isUuid(serverId) ? await ownedServerStatusBody(deps, keyOf(ctx).accountId, serverId) : undefined;
    if (!status) throw notFound('server');
    ctx.type = 'application/json';
    ctx.body = status;
  });

  router.get('/servers/:serverId/players', async (ctx) => {
    const serverId = await ownedServerId(deps, ctx, ctx.params.serverId!);
    ctx.type = 'application/json';
    ctx.body = await onlinePage(deps, serverId);
  });

  router.get('/servers/:serverId/leaderboard', async (ctx) => {
    const query = leaderboardQuery(ctx.query);
    const serverId = await ownedServerId(deps, ctx, ctx.params.serverId!);
    ctx.type = 'application/json';
    ctx.body = await leaderboardPage(deps, serverId, query.sort, query.offset, clampLimit(ctx, query.limit));
  });

  router.get('/servers/:serverId/kills', async (ctx) => {
    const query = killsQuery(ctx.query);
    const serverId = await ownedServerId(deps, ctx, ctx.params.serverId!);
    ctx.type = 'application/json';
    ctx.body = await killfeedPage(deps, serverId, query.before, clampLimit(ctx, query.limit));
  });

  router.get('/servers/:serverId/bans', async (ctx) => {
    const query = bansQuery(ctx.query);
    const serverId = await ownedServerId(deps, ctx, ctx.params.serverId!);
    const active = query.active === undefined ? null : query.active === 'true';
    const now = new Date(deps.clock.now()).toISOString();
    const limit = clampLimit(ctx, query.limit);
    ctx.body = { bans: await readView(deps, null, (db) => syncedBans(db, serverId, active, now, limit, query.offset)) } satisfies BanList;
  });

  return router;
}
