// Writes audit entries for controller actions: who (the signed-in user, or the chat user a bot
// acted for), what, on which target, from which address. Details never carry secrets: callers
// pass only names and ids.
import type { AppContext } from '../http/context.ts';
import type { Core } from '../core.ts';
import type { Queryable } from '../store/db.ts';
import { insertAudit } from './audit.repo.ts';

export interface AuditEvent {
  action: string;
  target?: { type: string; id: string };
  details?: Record<string, unknown>;
  /** Defaults to the signed-in user's account. */
  accountId?: string;
  /** Defaults to the signed-in user (a login names the user it signs in). */
  actor?: { id: string; name: string };
  /** Defaults to what the request's principal is: a chat user, or else a user. */
  actorType?: 'user' | 'system' | 'chat';
}

/** Records an action of the request's user (in the caller's transaction when `db` is one). */
export async function auditAction(deps: Core, ctx: AppContext, event: AuditEvent, db: Queryable = deps.db): Promise<void> {
  const principal = ctx.state.principal;
  await insertAudit(db, {
    accountId: event.accountId ?? principal?.accountId ?? null,
    at: new Date(deps.clock.now()).toISOString(),
    actorType: event.actorType ?? (principal?.via === 'chat' ? 'chat' : 'user'),
    actorId: event.actor?.id ?? principal?.userId ?? null,
    actorName: event.actor?.name ?? principal?.username ?? null,
    action: event.action,
    targetType: event.target?.type ?? null,
    targetId: event.target?.id ?? null,
    ip: ctx.state.clientIp || null,
    details: event.details ?? {},
  });
}
