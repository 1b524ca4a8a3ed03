// GET /api/servers/:id/{players,leaderboard,kills,bans,metrics} (servers.read): what the
// dashboard's server page shows, for a signed-in user instead of an API key. Each route is the
// Data API's own read (same pages, same caches), at the standard tier's page cap; the online list
// marks the players the account watches (the Data API's never does); metrics is the chart's
// range of stored status samples.
import Router from '@koa/router';
import type { ServerOwnerDeps } from './server.ts';
import type { AppState } from '../http/context.ts';
import { queryParser } from '../http/schemas.ts';
import { authenticate, principalOf, requirePermission } from '../auth/authenticate.ts';
import { pageCaps } from '../data-api/access.ts';
import { onlinePage } from '../data-api/online.ts';
import { leaderboardPage } from '../data-api/leaderboard.ts';
import { killfeedPage } from '../data-api/killfeed.ts';
import { syncedBans } from '../bans/ban-list.repo.ts';
import { accountServerId } from './server-param.ts';
import { watchedAmong } from '../players/watch.repo.ts';
import { metricsPage } from './metrics.ts';
import type { BanList, MetricsPage, OnlinePlayers, ServerOnlinePlayers } from '../http/schema-types.ts';

const leaderboardQuery = queryParser('query-leaderboard.json');
const killsQuery = queryParser('query-kills.json');
const bansQuery = queryParser('query-bans.json');
const metricsQuery = queryParser('query-server-metrics.json');
/** The dashboard is a person reading a page: the standard tier's cap is plenty. */
const cap = (limit: number) => Math.min(limit, pageCaps.standard);

export function serverViewsRouter(deps: ServerOwnerDeps): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api/servers', sensitive: true });
  router.use(authenticate(deps), requirePermission('servers.read'));

  router.get('/:id/players', async (ctx) => {
    const serverId = await accountServerId(deps, ctx);
    const { players, count } = JSON.parse((await onlinePage(deps, serverId)).toString('utf8')) as OnlinePlayers;
    const watched = await watchedAmong(
      deps.db,
      principalOf(ctx).accountId,
      players.map((p) => p.platformId),
    );
    ctx.body = { players: players.map((p) => ({ ...p, watched: watched.has(p.platformId) })), count } satisfies ServerOnlinePlayers;
  });

  router.get('/:id/leaderboard', async (ctx) => {
    const query = leaderboardQuery(ctx.query);
    const serverId = await accountServerId(deps, ctx);
    ctx.type = 'application/json';
    ctx.body = await leaderboardPage(deps, serverId, query.sort, query.offset, cap(query.limit));
  });

  router.get('/:id/kills', async (ctx) => {
    const query = killsQuery(ctx.query);
    const serverId = await accountServerId(deps, ctx);
    ctx.type = 'application/json';
    ctx.body = await killfeedPage(deps, serverId, query.before, cap(query.limit));
  });

  router.get('/:id/bans', async (ctx) => {
    const query = bansQuery(ctx.query);
    const serverId = await accountServerId(deps, ctx);
    const active = query.active === undefined ? null : query.active === 'true';
    ctx.body = {
      bans: await syncedBans(deps.db, serverId, active, new Date(deps.clock.now()).toISOString(), cap(query.limit), query.offset),
    } satisfies BanList;
  });

  router.get('/:id/metrics', async (ctx) => {
    const query = metricsQuery(ctx.query);
    ctx.body = (await metricsPage(deps, await accountServerId(deps, ctx), query)) satisfies MetricsPage;
  });

  return router;
}
