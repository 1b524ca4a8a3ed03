// Trust test helpers: RSA keys, pool submissions and moderation through the HTTP API, and a check
// that no submitter identity or note leaks into a public trust answer.
import { generateKeyPairSync } from 'node:crypto';
import type { ExecutionContext } from 'ava';
import type { Session } from './controller.ts';
import { call } from './controller-http.ts';
import type { TestEnv } from './env.ts';

const keyCache: string[] = [];
/** The n-th RSA private key (PEM) of this test process. */
export function rsaKey(n = 0): string {
  while (keyCache.length <= n) {
    keyCache.push(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString());
  }
  return keyCache[n]!;
}

export const secretNote = 'PRIVATE-NOTE-do-not-publish';

export async function submit(env: TestEnv, session: Session, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const res = await call(env, session, 'post', '/api/trust/submissions', {
    category: 'cheating',
    reason: 'aimbot seen by two admins',
    note: secretNote,
    ...body,
  });
  if (res.status !== 201) throw new Error(`submission failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as Record<string, unknown>;
}

export async function decide(
  env: TestEnv,
  moderator: Session,
  id: string,
  decision: 'approve' | 'reject' | 'overturn',
): Promise<Record<string, unknown>> {
  const path = decision === 'overturn' ? `/api/trust/entries/${id}/overturn` : `/api/trust/submissions/${id}/${decision}`;
  const res = await call(env, moderator, 'post', path);
  if (res.status !== 200) throw new Error(`${decision} failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as Record<string, unknown>;
}

/** Asserts a public trust answer (body and headers) names no submitter, user or note. */
export function assertNoSubmitter(t: ExecutionContext, text: string, secrets: string[], what: string): void {
  for (const secret of [secretNote, ...secrets]) t.false(text.includes(secret), `${what} leaks ${secret}`);
  for (const field of ['"note"', '"accountId"', '"submittedBy"', '"submitter"'])
    t.false(text.includes(field), `${what} has a ${field} field`);
}

/**
 * Waits until every pool change so far lies below the feed's horizon. The horizon is the oldest
 * transaction running anywhere in the PostgreSQL cluster, so a test running beside others sees its
 * own change in the feed only once their open transactions have ended.
 */
export async function feedSettled(env: TestEnv): Promise<void> {
  for (let i = 0; i < 500; i++) {
    const { rows } = await env.deps.db.query<{ settled: boolean }>(
      'SELECT coalesce(pg_snapshot_xmin(pg_current_snapshot()) > (SELECT max(change_xid) FROM trust_entries), true) AS settled',
    );
    if (rows[0]!.settled) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('the feed horizon did not pass the last change within 5 s');
}
