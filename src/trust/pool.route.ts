// /api/trust: the community ban pool. Communities submit (trust.submit); network moderators
// (trust.moderate) list every submission and approve, reject or overturn. These controller answers
// show the submitter and note to the people who judge them; the public trust routes never do.
import Router from '@koa/router';
import type { TrustDeps } from './lookup.ts';
import type { AppContext, AppState } from '../http/context.ts';
import { ApiError } from '../http/errors.ts';
import { bodyOf, jsonBody } from '../http/body.ts';
import { queryParser } from '../http/schemas.ts';
import { auditAction } from '../audit/audit.ts';
import { authenticate, principalOf, requirePermission } from '../auth/authenticate.ts';
import { listSubmissions } from './pool.repo.ts';
import { decideEntry, submitToPool } from './pool.ts';
import type { Decision } from './pool.ts';
import type { TrustSubmission, TrustSubmissionList } from '../http/schema-types.ts';

const submissionBody = bodyOf('trust-submission-create.json');
const listQuery = queryParser('query-trust-submissions.json');

export function trustPoolRouter(deps: TrustDeps): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api/trust', sensitive: true });
  router.use(['/submissions', '/entries'], authenticate(deps));

  router.post('/submissions', requirePermission('trust.submit'), jsonBody, async (ctx) => {
    const principal = principalOf(ctx);
    const entry = await submitToPool(deps, { accountId: principal.accountId, userId: principal.userId }, submissionBody(ctx));
    await auditAction(deps, ctx, {
      action: 'trust.submit',
      target: { type: 'trust-entry', id: entry.id },
      details: { category: entry.category, banId: entry.banId },
    });
    ctx.status = 201;
    ctx.body = entry satisfies TrustSubmission;
  });

  // Moderators see every community's submissions; a community sees its own.
  router.get('/submissions', async (ctx) => {
    const principal = principalOf(ctx);
    const moderator = principal.permissions.has('trust.moderate');
    if (!moderator && !principal.permissions.has('trust.submit'))
      throw new ApiError('FORBIDDEN', 'your role lacks the permission trust.submit or trust.moderate');
    const query = listQuery(ctx.query);
    const filter = { status: query.status, ...(moderator ? {} : { accountId: principal.accountId }) };
    ctx.body = { submissions: await listSubmissions(deps.db, filter, query.limit, query.offset) } satisfies TrustSubmissionList;
  });

  const decide = (decision: Decision) => async (ctx: AppContext) => {
    const entry = await decideEntry(deps, ctx.params.id!, decision);
    await auditAction(deps, ctx, {
      action: `trust.${decision}`,
      target: { type: 'trust-entry', id: entry.id },
      details: { status: entry.status },
    });
    ctx.body = entry satisfies TrustSubmission;
  };
  router.post('/submissions/:id/approve', requirePermission('trust.moderate'), decide('approve'));
  router.post('/submissions/:id/reject', requirePermission('trust.moderate'), decide('reject'));
  router.post('/entries/:id/overturn', requirePermission('trust.moderate'), decide('overturn'));

  return router;
}
