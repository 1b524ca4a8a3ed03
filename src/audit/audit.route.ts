// GET /api/audit (audit.read): the account's audit log, newest first, keyset-paginated, by actor and
// action if asked, each target named; the worker's routine file syncs only when asked for.
import Router from '@koa/router';
import type { Core } from '../core.ts';
import type { AppState } from '../http/context.ts';
import { queryParser } from '../http/schemas.ts';
import { authenticate, principalOf, requirePermission } from '../auth/authenticate.ts';
import { auditPage } from './audit.repo.ts';
import type { AuditPage } from '../http/schema-types.ts';

const auditQuery = queryParser('query-audit.json');

export function auditRouter(deps: Core): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api/audit', sensitive: true });
  router.get('/', authenticate(deps), requirePermission('audit.read'), async (ctx) => {
    const { before, limit, actor, action, fileSyncs } = auditQuery(ctx.query);
    const rows = await auditPage(deps.db, principalOf(ctx).accountId, before ?? null, limit + 1, { actor, action, fileSyncs });
    const entries = rows.slice(0, limit);
    ctx.body = { entries, nextCursor: rows.length > limit ? entries.at(-1)!.id : null } satisfies AuditPage;
  });
  return router;
}
