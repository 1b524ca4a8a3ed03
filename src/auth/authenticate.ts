// Controller authentication: the auth-token cookie is read first, then Authorization: Bearer.
// A cookie session must echo its CSRF token on every unsafe method outside the exempt paths.
import type { Middleware } from 'koa';
import type { Core } from '../core.ts';
import type { AppContext, AppState } from '../http/context.ts';
import { ApiError } from '../http/errors.ts';
import { bearerToken } from '../http/credentials.ts';
import { sessionCookie } from './cookies.ts';
import { permissionsOf } from './permissions.ts';
import type { Permission } from './permissions.ts';
import { csrfMatches, sessionFromToken } from './session.ts';
import type { SessionPrincipal } from '../auth/session.repo.ts';

export interface Principal extends Omit<SessionPrincipal, 'role'> {
  role: SessionPrincipal['role'] | 'chat-bot';
  /** How the caller proved who it is: a session (cookie or Bearer JWT), or the chat bot (src/chat/). */
  via: 'cookie' | 'bearer' | 'chat';
  permissions: Set<Permission>;
}

declare module '../http/request-state.ts' {
  interface RequestCaller {
    /** The controller's caller: a session's user, or a chat bot's signed call (src/chat/caller.ts). */
    principal?: Principal;
  }
}

const unsafeMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const dotSegment = /(^|[/\\])\.\.?([/\\]|$)/;
const safeDecode = (path: string) => {
  try {
    return decodeURIComponent(path);
  } catch {
    return '/..'; // undecodable: treated as leading out
  }
};
/** Exactly the spec's exempt list; a path is compared as it arrived, so `/api/auth/login/` is not exempt. */
export function csrfExempt(method: string, path: string): boolean {
  // A dot segment, plain or percent-encoded, leads out of /api/setup/ (/api/setup/../servers).
  if (path.startsWith('/api/setup/')) return !dotSegment.test(safeDecode(path));
  return (
    (method === 'POST' && ['/api/auth/login', '/api/auth/logout', '/api/store/webhook', '/api/chat/action'].includes(path)) ||
    (method === 'GET' && path === '/api/health')
  );
}

/** The request's session (the auth-token cookie first, then Authorization: Bearer), or undefined without a live one. */
export async function sessionPrincipal(deps: Core, ctx: AppContext): Promise<Principal | undefined> {
  const cookie = sessionCookie(ctx);
  const bearer = bearerToken(ctx.get('authorization'));
  let session = cookie ? await sessionFromToken(deps, cookie) : undefined;
  const via = session ? 'cookie' : 'bearer';
  if (!session && bearer) session = await sessionFromToken(deps, bearer);
  return session && { ...session, via, permissions: permissionsOf(session.role, session.isOperator) };
}

/** Resolves the session (401 without one) and enforces CSRF for cookie sessions. */
export function authenticate(deps: Core): Middleware<AppState> {
  return async (ctx, next) => {
    const principal = await sessionPrincipal(deps, ctx);
    if (!principal) throw new ApiError('UNAUTHORIZED', 'sign in first (auth-token cookie or Authorization: Bearer)');
    if (principal.via === 'cookie' && unsafeMethods.has(ctx.method) && !csrfExempt(ctx.method, ctx.path)) {
      if (!csrfMatches(deps, principal.sessionId, ctx.get('x-csrf-token')))
        throw new ApiError('csrf-mismatch', 'missing or wrong X-CSRF-Token header');
    }
    ctx.state.principal = principal;
    await next();
  };
}

export const principalOf = (ctx: AppContext): Principal => ctx.state.principal!;

/** 403 unless the signed-in user's role grants the permission. */
export function requirePermission(permission: Permission): Middleware<AppState> {
  return async (ctx, next) => {
    if (!principalOf(ctx).permissions.has(permission)) throw new ApiError('FORBIDDEN', `your role lacks the permission ${permission}`);
    await next();
  };
}

/** 403 unless the role grants at least one of the permissions. */
export function requireAnyPermission(...permissions: Permission[]): Middleware<AppState> {
  return async (ctx, next) => {
    const held = principalOf(ctx).permissions;
    if (!permissions.some((p) => held.has(p)))
      throw new ApiError('FORBIDDEN', `your role lacks the permission ${permissions.join(' or ')}`);
    await next();
  };
}
