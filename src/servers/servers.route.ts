// /api/servers: read (servers.read), register, change and revoke game servers, rotate their ingest
// token (servers.manage). The ingest token is shown once, at creation or rotation. File paths on
// the service's host: the operator's alone (file-paths.ts).
import Router from '@koa/router';
import type { AppContext, AppState } from '../http/context.ts';
import { badRequest, notFound } from '../http/errors.ts';
import { bodyOf, jsonBody } from '../http/body.ts';
import { isUuid } from '../http/uuid.ts';
import { auditAction } from '../audit/audit.ts';
import { authenticate, principalOf, requirePermission } from '../auth/authenticate.ts';
import { findManagedServer, listManagedServers, updateManagedServer } from './server.repo.ts';
import type { ManagedServer, ServerChange } from './server.repo.ts';
import { checkedFilePaths, fileConflictOf } from './file-paths.ts';
import { requestServerSync } from '../game-files/sync-requests.ts';
import { dropServerCaches, isOnline, registerServer, revokeServer, rotateIngestToken } from './server.ts';
import type { ServerDeps } from './server.ts';
import type { IngestToken, ManagedServer as ManagedServerAnswer, ManagedServerList, ServerCreated } from '../http/schema-types.ts';

/**
 * The service never runs a command a community chose: a body still naming the retired restart
 * command is told where restarts are configured now, rather than "unknown field".
 */
function withoutRestartCommand<T>(parse: (ctx: AppContext) => T): (ctx: AppContext) => T {
  return (ctx) => {
    const body: unknown = ctx.request.body;
    if (body && typeof body === 'object' && 'restartCommand' in body) {
      throw badRequest(
        'restartCommand is no longer a server setting: the service runs no command on its host. Restarts go through the ' +
          "server's agent (POST /api/servers/:id/restart, and a restart schedule); a game host without a process supervisor gives the agent its own --restart-command.",
      );
    }
    return parse(ctx);
  };
}

const createBody = withoutRestartCommand(bodyOf('server-create.json'));
const updateBody = withoutRestartCommand(bodyOf('server-update.json'));

const view = (s: ManagedServer, nowMs: number): ManagedServerAnswer => ({
  id: s.id,
  name: s.name,
  banFilePath: s.banFilePath,
  priorityFilePath: s.priorityFilePath,
  createdAt: s.createdAt,
  online: isOnline(s, nowMs),
  lastSeenAt: s.lastSeenAt,
  map: s.map,
  players: s.players,
  fps: s.fps,
  metricsAt: s.metricsAt,
});

const serverIdOf = (ctx: AppContext) => {
  const id = ctx.params.id!;
  if (!isUuid(id)) throw notFound('server');
  return id;
};

export function serversRouter(deps: ServerDeps): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api/servers', sensitive: true });
  router.use(authenticate(deps));
  const read = requirePermission('servers.read');
  const manage = requirePermission('servers.manage');
  const now = () => deps.clock.now();

  router.get('/', read, async (ctx) => {
    ctx.body = {
      servers: (await listManagedServers(deps.db, principalOf(ctx).accountId)).map((s) => view(s, now())),
    } satisfies ManagedServerList;
  });

  const mayNamePaths = (ctx: AppContext) => principalOf(ctx).permissions.has('accounts.manage');
  /** What a change said about file paths, for the audit (the paths themselves, not only that they changed). */
  const pathDetails = (change: ServerChange) => Object.fromEntries(Object.entries(change).filter(([k]) => k !== 'name'));

  router.post('/', manage, jsonBody, async (ctx) => {
    const body = await checkedFilePaths(deps, mayNamePaths(ctx), createBody(ctx));
    const { server, ingestToken } = await registerServer(deps, principalOf(ctx).accountId, body).catch((err: unknown) => {
      throw fileConflictOf(err);
    });
    await requestServerSync(deps.db, [server.id], 'both', new Date(now()).toISOString());
    await auditAction(deps, ctx, {
      action: 'server.create',
      target: { type: 'server', id: server.id },
      details: { name: server.name, ...pathDetails(body) },
    });
    const managed = (await findManagedServer(deps.db, principalOf(ctx).accountId, server.id))!;
    ctx.status = 201;
    ctx.body = { server: view(managed, now()), ingestToken } satisfies ServerCreated;
  });

  router.get('/:id', read, async (ctx) => {
    const server = await findManagedServer(deps.db, principalOf(ctx).accountId, serverIdOf(ctx));
    if (!server) throw notFound('server');
    ctx.body = view(server, now()) satisfies ManagedServerAnswer;
  });

  router.patch('/:id', manage, jsonBody, async (ctx) => {
    const parsed = updateBody(ctx);
    const accountId = principalOf(ctx).accountId;
    const current = await findManagedServer(deps.db, accountId, serverIdOf(ctx));
    if (!current) throw notFound('server');
    const change = await checkedFilePaths(deps, mayNamePaths(ctx), parsed, current);
    const server = await updateManagedServer(deps.db, accountId, current.id, change).catch((err: unknown) => {
      throw fileConflictOf(err);
    });
    if (!server) throw notFound('server');
    await dropServerCaches(deps, server.id);
    // A new file path is synced (and its first sync imports what the file holds).
    if ('banFilePath' in change || 'priorityFilePath' in change) {
      await requestServerSync(
        deps.db,
        [server.id],
        'banFilePath' in change && 'priorityFilePath' in change ? 'both' : 'banFilePath' in change ? 'bans' : 'priority',
        new Date(now()).toISOString(),
      );
    }
    await auditAction(deps, ctx, {
      action: 'server.update',
      target: { type: 'server', id: server.id },
      details: { changed: Object.keys(change), ...pathDetails(change) },
    });
    ctx.body = view(server, now()) satisfies ManagedServerAnswer;
  });

  router.delete('/:id', manage, async (ctx) => {
    const serverId = serverIdOf(ctx);
    if (!(await revokeServer(deps, principalOf(ctx).accountId, serverId))) throw notFound('server');
    await auditAction(deps, ctx, { action: 'server.revoke', target: { type: 'server', id: serverId } });
    ctx.status = 204;
  });

  router.post('/:id/ingest-token', manage, async (ctx) => {
    const serverId = serverIdOf(ctx);
    const ingestToken = await rotateIngestToken(deps, principalOf(ctx).accountId, serverId);
    if (!ingestToken) throw notFound('server');
    await auditAction(deps, ctx, { action: 'server.ingest-token.rotate', target: { type: 'server', id: serverId } });
    ctx.body = { ingestToken } satisfies IngestToken;
  });

  return router;
}
