// The two signatures of the store webhook (docs/api.md), checked over the raw body bytes, compared
// in constant time. Tebex: X-Signature = hex HMAC-SHA256(secret, hex SHA-256 of the body), with
// no timestamp (replays are stopped by the event id). The service's own format:
// X-Store-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "t.body")>[,v1=...], several v1
// allowed so that a shop can sign with an old and a new secret while they rotate.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

export const ownToleranceSeconds = 300;

export type SignatureCheck = { ok: true } | { ok: false; reason: string };

const hex64 = /^[0-9a-f]{64}$/;

const sameHex = (expected: string, given: string) => hex64.test(given) && timingSafeEqual(Buffer.from(expected), Buffer.from(given));

export function tebexSignature(secret: string, body: Uint8Array): string {
  const bodyHash = createHash('sha256').update(body).digest('hex');
  return createHmac('sha256', secret).update(bodyHash).digest('hex');
}

export function checkTebexSignature(secret: string, header: string, body: Uint8Array): SignatureCheck {
  const given = header.trim().toLowerCase();
  if (!hex64.test(given)) return { ok: false, reason: 'X-Signature is not 64 hex digits' };
  return sameHex(tebexSignature(secret, body), given) ? { ok: true } : { ok: false, reason: 'the signature does not match' };
}

export function ownSignature(secret: string, timestamp: string, body: Uint8Array): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex');
}

/** Reads "t=...,v1=...,v1=..."; undefined when it is not that shape. */
function parseOwnHeader(header: string): { timestamp: string; signatures: string[] } | undefined {
  let timestamp: string | undefined;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) return undefined;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't') {
      if (timestamp !== undefined) return undefined;
      timestamp = value;
    } else if (key === 'v1') signatures.push(value.toLowerCase());
  }
  if (timestamp === undefined || signatures.length === 0 || signatures.length > 8) return undefined;
  return { timestamp, signatures };
}

export function checkOwnSignature(secret: string, header: string, body: Uint8Array, nowMs: number): SignatureCheck {
  const parsed = parseOwnHeader(header);
  if (!parsed) return { ok: false, reason: 'X-Store-Signature is not t=<unix seconds>,v1=<hex>' };
  if (!/^[0-9]{1,12}$/.test(parsed.timestamp)) return { ok: false, reason: 'the t= of X-Store-Signature is not unix seconds' };
  const skew = Number(parsed.timestamp) - Math.floor(nowMs / 1000);
  if (skew < -ownToleranceSeconds) return { ok: false, reason: `the timestamp is more than ${ownToleranceSeconds} s old` };
  if (skew > ownToleranceSeconds) return { ok: false, reason: `the timestamp is more than ${ownToleranceSeconds} s ahead` };
  const expected = ownSignature(secret, parsed.timestamp, body);
  // Every candidate is compared, so the time taken does not tell which one matched.
  const matches = parsed.signatures.map((given) => sameHex(expected, given));
  return matches.includes(true) ? { ok: true } : { ok: false, reason: 'no v1 signature matches' };
}
