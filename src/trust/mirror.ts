// The reference partner client: follows the export feed, verifies every page's proof against the
// discovery document's JWKS (signature, issuer, type, partner binding, digest, count, cursors and
// the resume point: the since it asked from and the syncedThrough it is answered), and applies the
// rows to a local mirror of active bans; tombstones (overturned, expired) lift them. The mirror
// remembers syncedThrough, so a later run resumes where this one stopped.
import { createLocalJWKSet, jwtVerify } from 'jose';
import type { JSONWebKeySet } from 'jose';
import type { ExportRow } from './export.repo.ts';
import { rowsDigest } from './export.ts';
import { exportProofType } from './signing.ts';

export interface MirrorState {
  source: string;
  /** The partner key id the proofs are bound to (learnt from the first verified page when not given). */
  keyId: string | null;
  syncedThrough: string | null;
  bans: Record<string, ExportRow>;
}

export interface MirrorOptions {
  url: string;
  key: string;
  keyId?: string;
  pageSize?: number;
  /** Verification time (ms); the system clock by default. */
  now?: () => number;
  fetch?: typeof fetch;
}

export const emptyMirror = (url: string): MirrorState => ({ source: url, keyId: null, syncedThrough: null, bans: {} });

export class MirrorError extends Error {
  override name = 'MirrorError';
}

interface Page {
  rows: ExportRow[];
  count: number;
  nextCursor: string | null;
  syncedThrough: string | null;
  proof?: string;
}

async function getJson(doFetch: typeof fetch, url: string, headers: Record<string, string> = {}): Promise<unknown> {
  const res = await doFetch(url, { headers });
  const text = await res.text();
  if (!res.ok) throw new MirrorError(`GET ${url} answered ${res.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

/** Applies one verified page: an active row is a ban, a tombstone lifts it. */
export function applyRows(state: MirrorState, rows: ExportRow[]): void {
  for (const row of rows) {
    if (row.status === 'active') state.bans[row.id] = row;
    else delete state.bans[row.id];
  }
}

/** Brings the mirror up to date; returns how many pages and rows it read. */
export async function syncMirror(state: MirrorState, options: MirrorOptions): Promise<{ pages: number; rows: number }> {
  const doFetch = options.fetch ?? fetch;
  const base = options.url.replace(/\/+$/, '');
  const discovery = (await getJson(doFetch, `${base}/.well-known/service-trust.json`)) as {
    issuer: string;
    signing?: { jwks: JSONWebKeySet };
  };
  if (!discovery.signing) throw new MirrorError('the service publishes no signing key: its pages cannot be verified');
  const jwks = createLocalJWKSet(discovery.signing.jwks);
  const keyId = options.keyId ?? state.keyId;
  const now = options.now ?? Date.now;
  let cursor: string | null = null;
  let pages = 0;
  let rows = 0;
  for (;;) {
    const query = new URLSearchParams({ limit: String(options.pageSize ?? 500) });
    const since = cursor === null ? state.syncedThrough : null;
    if (cursor !== null) query.set('cursor', cursor);
    else if (since !== null) query.set('since', since);
    const page = (await getJson(doFetch, `${base}/api/v1/trust/export?${query}`, { authorization: `Bearer ${options.key}` })) as Page;
    if (!page.proof) throw new MirrorError('a page came without a proof');
    const { payload } = await jwtVerify(page.proof, jwks, {
      algorithms: ['RS256'],
      issuer: discovery.issuer,
      typ: exportProofType,
      currentDate: new Date(now()),
      ...(keyId ? { audience: keyId } : {}),
    }).catch((err: Error) => {
      throw new MirrorError(`a page's proof does not verify: ${err.message}`);
    });
    if (typeof payload.aud !== 'string') throw new MirrorError('the proof names no partner');
    if (payload.digest !== rowsDigest(page.rows) || payload.count !== page.rows.length || page.count !== page.rows.length)
      throw new MirrorError('the rows do not match the proof');
    if (payload.cursor !== cursor || payload.nextCursor !== page.nextCursor)
      throw new MirrorError('the page is not the one asked for (cursors differ from the proof)');
    if (payload.since !== since)
      throw new MirrorError('the page was read from another point than the one asked for (since differs from the proof)');
    if (payload.syncedThrough !== page.syncedThrough)
      throw new MirrorError('the resume point is not the one the service gave (syncedThrough differs from the proof)');
    state.keyId ??= payload.aud;
    applyRows(state, page.rows);
    pages++;
    rows += page.rows.length;
    if (page.nextCursor === null) {
      state.syncedThrough = page.syncedThrough;
      return { pages, rows };
    }
    cursor = page.nextCursor;
  }
}
