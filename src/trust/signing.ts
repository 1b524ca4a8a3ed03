// Trust proofs (docs/trust-network.md): RS256 JWTs signed with the configured keys, never the session key. The
// lookup proof and the export page proof have their own `typ` and `aud`, neither of which a session
// JWT carries, so no token is ever accepted as another kind.
import { createPrivateKey, createPublicKey } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { SignJWT, calculateJwkThumbprint, exportJWK } from 'jose';
import type { JWK } from 'jose';
import type { Config } from '../config.ts';

export const proofAlgorithm = 'RS256';
export const lookupProofType = 'trust-score+jwt';
export const lookupProofAudience = 'service-trust-lookup';
export const exportProofType = 'trust-export+jwt';
/** A proof states a score at a time; verifiers may hold it this long. */
export const proofLifetimeSeconds = 24 * 3600;

export interface TrustSigner {
  issuer: string;
  kid: string;
  jwks: { keys: JWK[] };
  sign(claims: Record<string, unknown>, type: string, audience: string, issuedAtMs: number): Promise<string>;
}

const signers = new WeakMap<Config, Promise<TrustSigner | undefined>>();

/** The signer of this configuration (built once), or undefined when no key is configured. */
export function trustSigner(config: Config): Promise<TrustSigner | undefined> {
  let signer = signers.get(config);
  if (!signer) {
    signer = buildSigner(config.trustSigningKeys, config.trustIssuer);
    signers.set(config, signer);
  }
  return signer;
}

async function publicJwk(key: KeyObject): Promise<JWK> {
  const jwk = await exportJWK(createPublicKey(key));
  return { ...jwk, kid: await calculateJwkThumbprint(jwk), alg: proofAlgorithm, use: 'sig' };
}

async function buildSigner(pems: string[], issuer: string): Promise<TrustSigner | undefined> {
  if (pems.length === 0) return undefined;
  const keys = pems.map((pem) => createPrivateKey(pem));
  const published = await Promise.all(keys.map(publicJwk));
  // Two configured copies of one key publish it once.
  const unique = published.filter((jwk, i) => published.findIndex((k) => k.kid === jwk.kid) === i);
  const signingKey = keys[0]!;
  const kid = published[0]!.kid!;
  return {
    issuer,
    kid,
    jwks: { keys: unique },
    sign: (claims, type, audience, issuedAtMs) => {
      const iat = Math.floor(issuedAtMs / 1000);
      return new SignJWT(claims)
        .setProtectedHeader({ alg: proofAlgorithm, kid, typ: type })
        .setIssuer(issuer)
        .setAudience(audience)
        .setIssuedAt(iat)
        .setExpirationTime(iat + proofLifetimeSeconds)
        .sign(signingKey);
    },
  };
}

/** The `kid` in a JWT's header, or undefined when it has none (or is no JWT). */
export function kidOf(token: string): string | undefined {
  const dot = token.indexOf('.');
  if (dot <= 0) return undefined;
  try {
    const header = JSON.parse(Buffer.from(token.slice(0, dot), 'base64url').toString('utf8')) as { kid?: unknown };
    return typeof header.kid === 'string' ? header.kid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether a cached answer's proof may still be served: signed by a key still configured (a
 * withdrawn key signs nothing more, not even from a cache), or unsigned while signing is off.
 */
export function proofServable(signer: TrustSigner | undefined, proof: string): boolean {
  if (!signer) return proof === '';
  const kid = kidOf(proof);
  return kid !== undefined && signer.jwks.keys.some((key) => key.kid === kid);
}
