// POST /api/auth/login, POST /api/auth/logout, GET /api/auth/session (who is signed in and what
// they may do: the dashboard shows only the pages and buttons the role allows; 401 without a
// session), and GET /api/auth/signed-in (the same, or signedIn: false, always 200: the dashboard's
// first look, which is no failure when nobody is signed in).
import Router from '@koa/router';
import type { Core } from '../core.ts';
import type { AppContext, AppState } from '../http/context.ts';
import { ApiError } from '../http/errors.ts';
import { bodyOf, jsonBody } from '../http/body.ts';
import { auditAction } from '../audit/audit.ts';
import { findUserForLogin } from '../users/user.repo.ts';
import { authenticate, principalOf, sessionPrincipal } from './authenticate.ts';
import type { Principal } from './authenticate.ts';
import { clearSessionCookies, setSessionCookies } from './cookies.ts';
import { loginAttempt } from './lockout.ts';
import type { LockOutcome } from './lockout.ts';
import { decoyHash, verifyPassword } from './password.ts';
import { revokeSession } from './session.repo.ts';
import { findAccount } from '../accounts/account.repo.ts';
import { accountPermissions, networkPermissions } from './permissions.ts';
import { csrfTokenFor, startSession } from './session.ts';
import type { LoginResult, Session, SignInState } from '../http/schema-types.ts';

const loginBody = bodyOf('login.json');

export function authRouter(deps: Core): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api/auth', sensitive: true });
  // Made with the app, so the first unknown name costs no more than a wrong password either.
  const decoy = decoyHash(deps.config.passwordScryptN);

  router.post('/login', jsonBody, async (ctx) => {
    const { username, password } = loginBody(ctx);
    const attempt = loginAttempt(deps, ctx.state.clientIp, username);
    const begun = await attempt.begin();
    if (begun.refused) throw lockedOut(begun.retryAfterMs);
    const { user, valid } = await checkPassword(deps, username, password, decoy).catch(async (err: unknown) => {
      await attempt.release().catch(() => undefined); // Redis may be the store that failed; the reservation then expires
      throw err;
    });
    if (!user || !valid) {
      const failed = await attempt.fail();
      if (user) await auditFailedSignIn(deps, ctx, user, failed);
      throw new ApiError('INVALID_CREDENTIALS', 'wrong username or password');
    }
    await attempt.succeed();
    const session = await startSession(deps, user.id);
    setSessionCookies(ctx, session.token, csrfTokenFor(deps, session.sessionId), deps.config.sessionTtlMinutes * 60);
    await auditAction(deps, ctx, {
      accountId: user.accountId,
      actor: { id: user.id, name: user.username },
      action: 'auth.login',
      target: { type: 'user', id: user.id },
    });
    ctx.body = {
      token: session.token,
      expiresAt: session.expiresAt,
      user: { id: user.id, username: user.username, role: user.role, accountId: user.accountId },
    } satisfies LoginResult;
  });

  router.post('/logout', authenticate(deps), async (ctx) => {
    const principal = principalOf(ctx);
    await revokeSession(deps.db, principal.sessionId, new Date(deps.clock.now()).toISOString());
    clearSessionCookies(ctx);
    await auditAction(deps, ctx, { action: 'auth.logout', target: { type: 'user', id: principal.userId } });
    ctx.status = 204;
  });

  router.get('/session', authenticate(deps), async (ctx) => {
    ctx.body = await sessionBody(deps, principalOf(ctx));
  });

  router.get('/signed-in', async (ctx) => {
    const principal = await sessionPrincipal(deps, ctx);
    ctx.body = (principal ? { signedIn: true, session: await sessionBody(deps, principal) } : { signedIn: false }) satisfies SignInState;
  });

  return router;
}

/** A session as the routes answer it: its user, community, and the permissions the role grants. */
async function sessionBody(deps: Core, p: Principal): Promise<Session> {
  const account = await findAccount(deps.db, p.accountId);
  // In the table's order, so the list reads the same for every user of a role.
  const permissions = [...accountPermissions, ...networkPermissions].filter((perm) => p.permissions.has(perm));
  return {
    // Sessions alone reach here (a cookie or a session's Bearer JWT): the chat bot's role never does.
    user: { id: p.userId, username: p.username, role: p.role as Session['user']['role'], accountId: p.accountId },
    account: { id: p.accountId, name: account?.name ?? '', operator: p.isOperator },
    permissions,
  };
}

async function checkPassword(deps: Core, username: string, password: string, decoy: Promise<string>) {
  const user = await findUserForLogin(deps.db, username);
  // An unknown user costs the same hash check as a wrong password, and gets the same answer.
  const valid = await verifyPassword(password, user?.passwordHash ?? (await decoy));
  return { user, valid };
}

const lockedOut = (retryAfterMs: number) => {
  const retryAfter = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return new ApiError('RATE_LIMITED', 'too many failed sign-ins; try again later', { retryAfter }, { 'Retry-After': String(retryAfter) });
};

/** A wrong password for a known user is a security event its admins look for; so is a lockout it starts. */
async function auditFailedSignIn(
  deps: Core,
  ctx: AppContext,
  user: { id: string; accountId: string; username: string },
  failed: LockOutcome,
): Promise<void> {
  const event = { accountId: user.accountId, actor: { id: user.id, name: user.username }, target: { type: 'user', id: user.id } };
  await auditAction(deps, ctx, { ...event, action: 'auth.login-failed' });
  if (failed.lockedNow)
    await auditAction(deps, ctx, { ...event, action: 'auth.lockout', details: { seconds: Math.round(failed.retryAfterMs / 1000) } });
}
