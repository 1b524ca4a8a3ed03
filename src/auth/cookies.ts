// The session cookies: auth-token (HttpOnly) and csrf-token (readable by scripts), both
// SameSite=Lax, Secure when the request came over HTTPS (directly or via a trusted proxy).
import { parseCookie, stringifySetCookie } from 'cookie';
import type { AppContext } from '../http/context.ts';

export const authCookie = 'auth-token';
export const csrfCookie = 'csrf-token';

export function setSessionCookies(ctx: AppContext, token: string, csrf: string, maxAgeSeconds: number): void {
  const base = { path: '/', sameSite: 'lax' as const, secure: ctx.state.https, maxAge: maxAgeSeconds };
  ctx.append('Set-Cookie', [
    stringifySetCookie(authCookie, token, { ...base, httpOnly: true }),
    stringifySetCookie(csrfCookie, csrf, base),
  ]);
}

export function clearSessionCookies(ctx: AppContext): void {
  setSessionCookies(ctx, '', '', 0);
}

export function sessionCookie(ctx: AppContext): string | undefined {
  const header = ctx.get('cookie');
  return header ? parseCookie(header)[authCookie] || undefined : undefined;
}
