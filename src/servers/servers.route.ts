// /api/servers (servers.manage): register, list, change and revoke game servers; rotate their
// ingest token. The ingest token is shown once, at creation or rotation.
import Router from '@koa/router';
import type { Deps } from '../deps.ts';
import type { AppContext, AppState } from '../http/context.ts';
import { notFound } from '../http/errors.ts';
import { bodyOf, jsonBody } from '../http/body.ts';
import { isUuid } from '../http/uuid.ts';
import { auditAction } from '../audit/audit.ts';
import { authenticate, principalOf, requirePermission } from '../auth/authenticate.ts';
import { findManagedServer, listManagedServers, updateManagedServer } from './server.repo.ts';
import type { ManagedServer, NewServer, ServerChange } from './server.repo.ts';
import { dropServerCaches, isOnline, registerServer, revokeServer, rotateIngestToken } from './server.ts';

const createBody = bodyOf<NewServer>('server-create.json');
const updateBody = bodyOf<ServerChange>('server-update.json');

const view = (s: ManagedServer, nowMs: number) => ({
  id: s.id, name: s.name, banFilePath: s.banFilePath, priorityFilePath: s.priorityFilePath, restartCommand: s.restartCommand,
  createdAt: s.createdAt, online: isOnline(s, nowMs), lastSeenAt: s.lastSeenAt,
});

const serverIdOf = (ctx: AppContext) => {
  const id = ctx.params.id!.toLowerCase();
  if (!isUuid(id)) throw notFound('server');
  return id;
};

export function serversRouter(deps: Deps): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api/servers', sensitive: true });
  router.use(authenticate(deps), requirePermission('servers.manage'));
  const now = () => deps.clock.now();

  router.get('/', async (ctx) => {
    ctx.body = { servers: (await listManagedServers(deps.db, principalOf(ctx).accountId)).map((s) => view(s, now())) };
  });

  router.post('/', jsonBody, async (ctx) => {
    const { server, ingestToken } = await registerServer(deps, principalOf(ctx).accountId, createBody(ctx));
    await auditAction(deps, ctx, { action: 'server.create', target: { type: 'server', id: server.id }, details: { name: server.name } });
    const managed = (await findManagedServer(deps.db, principalOf(ctx).accountId, server.id))!;
    ctx.status = 201;
    ctx.body = { server: view(managed, now()), ingestToken };
  });

  router.get('/:id', async (ctx) => {
    const server = await findManagedServer(deps.db, principalOf(ctx).accountId, serverIdOf(ctx));
    if (!server) throw notFound('server');
    ctx.body = view(server, now());
  });

  router.patch('/:id', jsonBody, async (ctx) => {
    const change = updateBody(ctx);
    const server = await updateManagedServer(deps.db, principalOf(ctx).accountId, serverIdOf(ctx), change);
    if (!server) throw notFound('server');
    await dropServerCaches(deps, server.id);
    await auditAction(deps, ctx, { action: 'server.update', target: { type: 'server', id: server.id }, details: { changed: Object.keys(change) } });
    ctx.body = view(server, now());
  });

  router.delete('/:id', async (ctx) => {
    const serverId = serverIdOf(ctx);
    if (!(await revokeServer(deps, principalOf(ctx).accountId, serverId))) throw notFound('server');
    await auditAction(deps, ctx, { action: 'server.revoke', target: { type: 'server', id: serverId } });
    ctx.status = 204;
  });

  router.post('/:id/ingest-token', async (ctx) => {
    const serverId = serverIdOf(ctx);
    const ingestToken = await rotateIngestToken(deps, principalOf(ctx).accountId, serverId);
    if (!ingestToken) throw notFound('server');
    await auditAction(deps, ctx, { action: 'server.ingest-token.rotate', target: { type: 'server', id: serverId } });
    ctx.body = { ingestToken };
  });

  return router;
}
