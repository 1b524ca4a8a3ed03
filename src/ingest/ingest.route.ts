// POST /api/servers/:serverId/events: a game server's agent pushes its events with the ingest token.
import Router from '@koa/router';
import type { IngestDeps } from './ingest.ts';
import type { IngestTokenDeps } from './ingest-token.ts';
import type { AppState } from '../http/context.ts';
import { ApiError } from '../http/errors.ts';
import { jsonParser } from '../http/body.ts';
import { admitIngestToken } from './ingest-admission.ts';
import { ingestBatch } from './ingest.ts';
import type { IngestSlots } from './ingest.ts';
import { BatchGroups } from './batch-groups.ts';
import { countedBodyBytes, IngestGate } from './ingest-gate.ts';
import type { IngestResult } from '../http/schema-types.ts';

export function ingestRouter(deps: IngestDeps & IngestTokenDeps): Router<AppState> {
  const router = new Router<AppState>({ sensitive: true });
  // One per web process: it bounds what this process's pool gives to ingestion, and its group
  // calls carry the batches of many servers at once.
  const gate = new IngestGate(deps.config.pgPoolSize);
  const groups = new BatchGroups(deps, (work) => gate.connection(work));
  const apply: IngestSlots['apply'] = (serverId, columns) => groups.apply(serverId, columns);
  const body = jsonParser(deps.config.ingestBodyLimitBytes);
  const bodyBytesOf = (ctx: { request: { length: number | undefined } }) =>
    countedBodyBytes(ctx.request.length, deps.config.ingestBodyLimitBytes);

  router.post(
    '/api/servers/:serverId/events',
    async (ctx, next) => {
      const serverId = ctx.params.serverId!;
      await admitIngestToken(deps, ctx, serverId);
      if (!ctx.is('application/json')) throw new ApiError('UNSUPPORTED_MEDIA_TYPE', 'send the batch as application/json');
      gate.refuseWhenFull(serverId, bodyBytesOf(ctx));
      await next();
    },
    body,
    async (ctx) => {
      const serverId = ctx.params.serverId!;
      const bytes = bodyBytesOf(ctx);
      ctx.body = (await ingestBatch(deps, serverId, ctx.request.body, {
        turn: (work) => gate.run(serverId, bytes, work),
        apply,
      })) satisfies IngestResult;
    },
  );

  return router;
}
