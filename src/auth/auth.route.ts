// POST /api/auth/login and POST /api/auth/logout.
import Router from '@koa/router';
import type { Deps } from '../deps.ts';
import type { AppState } from '../http/context.ts';
import { ApiError } from '../http/errors.ts';
import { bodyOf, jsonBody } from '../http/body.ts';
import { auditAction } from '../audit/audit.ts';
import { findUserForLogin } from '../users/user.repo.ts';
import { authenticate, principalOf } from './authenticate.ts';
import { clearSessionCookies, setSessionCookies } from './cookies.ts';
import { lockState, recordFailure, recordSuccess } from './lockout.ts';
import { decoyHash, verifyPassword } from './password.ts';
import { revokeSession } from './session.repo.ts';
import { csrfTokenFor, startSession } from './session.ts';

const loginBody = bodyOf<{ username: string; password: string }>('login.json');

export function authRouter(deps: Deps): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api/auth', sensitive: true });

  router.post('/login', jsonBody, async (ctx) => {
    const { username, password } = loginBody(ctx);
    const ip = ctx.state.clientIp;
    const lock = await lockState(deps, ip, username);
    if (lock.locked) {
      const retryAfter = Math.ceil(lock.retryAfterMs / 1000);
      throw new ApiError('RATE_LIMITED', 'too many failed sign-ins; try again later', { retryAfter }, { 'Retry-After': String(retryAfter) });
    }
    const user = await findUserForLogin(deps.db, username);
    // An unknown user costs the same hash check as a wrong password, and gets the same answer.
    const valid = await verifyPassword(password, user?.passwordHash ?? decoyHash);
    if (!user || !valid) {
      await recordFailure(deps, ip, username);
      throw new ApiError('INVALID_CREDENTIALS', 'wrong username or password');
    }
    await recordSuccess(deps, ip, username);
    const session = await startSession(deps, user.id);
    setSessionCookies(ctx, session.token, csrfTokenFor(deps, session.sessionId), deps.config.sessionTtlMinutes * 60);
    await auditAction(deps, ctx, { accountId: user.accountId, actor: { id: user.id, name: user.username }, action: 'auth.login', target: { type: 'user', id: user.id } });
    ctx.body = { token: session.token, expiresAt: session.expiresAt, user: { id: user.id, username: user.username, role: user.role, accountId: user.accountId } };
  });

  router.post('/logout', authenticate(deps), async (ctx) => {
    const principal = principalOf(ctx);
    await revokeSession(deps.db, principal.sessionId, new Date(deps.clock.now()).toISOString());
    clearSessionCookies(ctx);
    await auditAction(deps, ctx, { action: 'auth.logout', target: { type: 'user', id: principal.userId } });
    ctx.status = 204;
  });

  return router;
}
