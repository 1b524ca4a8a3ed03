// Session tokens: HS256 JWTs (algorithm pinned, expiry required, issuer and audience checked,
// 60 s of clock skew) whose jti names a session row. Revocation is a column of that row, so it
// holds after a Redis flush; every request checks it in PostgreSQL.
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import type { Core } from '../core.ts';
import { findLiveSession, insertSession } from './session.repo.ts';
import type { SessionPrincipal } from './session.repo.ts';

const issuer = 'gameservice';
const audience = 'gameservice-controller';
const tokenType = 'session+jwt';
/** Clock skew allowed on exp, by the JWT check and by the session row's expiry alike. */
const clockSkewSeconds = 60;

// Imported once per configuration: jose given raw bytes imports a WebCrypto key on every call,
// which cost a third of an authenticated request's CPU.
const sessionKeys = new WeakMap<Core['config'], Promise<CryptoKey>>();
function keyOf(deps: Core): Promise<CryptoKey> {
  let key = sessionKeys.get(deps.config);
  if (!key) {
    const raw = new TextEncoder().encode(deps.config.jwtSecret);
    key = crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
    sessionKeys.set(deps.config, key);
  }
  return key;
}

export async function startSession(deps: Core, userId: string): Promise<{ token: string; sessionId: string; expiresAt: string }> {
  const now = deps.clock.now();
  const sessionId = randomUUID();
  const expiresMs = now + deps.config.sessionTtlMinutes * 60_000;
  await insertSession(deps.db, sessionId, userId, new Date(now).toISOString(), new Date(expiresMs).toISOString());
  const token = await new SignJWT({})
    .setProtectedHeader({ alg: 'HS256', typ: tokenType })
    .setSubject(userId)
    .setJti(sessionId)
    .setIssuer(issuer)
    .setAudience(audience)
    .setIssuedAt(Math.floor(now / 1000))
    .setExpirationTime(Math.floor(expiresMs / 1000))
    .sign(await keyOf(deps));
  return { token, sessionId, expiresAt: new Date(expiresMs).toISOString() };
}

/** The principal of a valid, live session token; undefined for anything else. */
export async function sessionFromToken(deps: Core, token: string): Promise<SessionPrincipal | undefined> {
  if (token.length > 4096) return undefined;
  const now = deps.clock.now();
  const verified = await jwtVerify(token, await keyOf(deps), {
    algorithms: ['HS256'],
    issuer,
    audience,
    typ: tokenType,
    clockTolerance: clockSkewSeconds,
    requiredClaims: ['exp', 'jti', 'sub'],
    currentDate: new Date(now),
  }).catch(() => undefined); // any bad token is simply no session
  const sessionId = verified?.payload.jti;
  if (!sessionId || !/^[0-9a-f-]{36}$/.test(sessionId)) return undefined;
  // The row's expires_at equals the token's exp: compare it with the same skew, or the skew the
  // JWT check allows would never let a request through.
  const principal = await findLiveSession(deps.db, sessionId, new Date(now - clockSkewSeconds * 1000).toISOString());
  return principal?.userId === verified.payload.sub ? principal : undefined;
}

/** The CSRF token of a session: bound to it, so it cannot be chosen by the client. */
export const csrfTokenFor = (deps: Core, sessionId: string) =>
  createHmac('sha256', deps.config.jwtSecret).update(`csrf:${sessionId}`).digest('base64url');

export function csrfMatches(deps: Core, sessionId: string, presented: string): boolean {
  const expected = Buffer.from(csrfTokenFor(deps, sessionId));
  const given = Buffer.from(presented);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
