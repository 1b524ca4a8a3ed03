// What the routes served from Redis-derived state answer while that state is missing (Redis came
// back empty) or being rebuilt: 503 REBUILDING, never a wrong 200. A server that has never ingested
// anything has no derived state to miss, and is simply empty.
import { ApiError } from '../http/errors.ts';
import { serverRecord } from '../servers/server.ts';
import type { ServerDeps } from '../servers/server.ts';

/** Seconds a client waits: the worker rebuilds a missing server within one reconcile interval. */
export const rebuildRetryAfterSeconds = 5;

export async function refuseWhileRebuilding(deps: ServerDeps, serverId: string): Promise<void> {
  const record = await serverRecord(deps, serverId);
  if (record && record.version > 0) {
    throw new ApiError(
      'REBUILDING',
      "this server's derived data is being rebuilt from the database; try again shortly",
      { retryAfter: rebuildRetryAfterSeconds },
      { 'Retry-After': String(rebuildRetryAfterSeconds) },
    );
  }
}
