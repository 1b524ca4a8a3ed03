// Worker job: delivers the outbox. Every second, the endpoints with an event due, each under a
// Redis lock of its own and all at once, so one request in flight an endpoint (its events go in
// order) while a slow or dead endpoint delays no other, and several workers share the work. An
// event leaves the outbox only once its endpoint answered 2xx (at least once: a worker that dies
// mid-request sends it again). A failure is tried again with growing waits; after 24 h of failures
// the endpoint is paused with the reason, its events kept for a resume. A 429 that says how long
// to wait (Discord's `retry_after`, or a Retry-After header) waits that long and counts as no
// failure; a 503 with Retry-After is a failure tried again when it asks (both at most an hour). Every attempt is recorded (the last 100 an endpoint).
import { randomUUID } from 'node:crypto';
import type { Core } from '../core.ts';
import { inTransaction } from '../store/db.ts';
import { webhookDeliveries } from '../meters.ts';
import { jobLockKey } from '../store/keys.ts';
import { endpointById } from './endpoint.repo.ts';
import type { Endpoint } from './endpoint.repo.ts';
import {
  dueEndpointIds,
  headEvents,
  markDelivered,
  markFailed,
  markWaiting,
  pauseEndpoint,
  playerRecords,
  recordDelivery,
} from './outbox.repo.ts';
import type { DeliveryRecord, QueuedEvent } from './outbox.repo.ts';
import { discordLimits } from './discord.ts';
import { askedWaitMs } from './asked-wait.ts';
import { discordMessageOf, standardMessage } from './message.ts';
import type { OutboundMessage } from './message.ts';
import { postJson, requestTimeoutMs } from './transport.ts';
import type { PostResult } from './transport.ts';
import type { Resolver } from './destination.ts';
import type { KillData } from './events.ts';

/** How long an endpoint keeps failing before it is paused. */
export const giveUpMs = 24 * 3600_000;
/**
 * How long one run keeps sending an endpoint's waiting events (real time: it bounds how long the
 * endpoint's lock is held, and a backlog drains at the receiver's pace, not a run a second).
 */
const runBudgetMs = 5000;
/** Past any run: the budget, one request's time limit, and the database's work around it. */
const lockMs = runBudgetMs + requestTimeoutMs + 60_000;
const endpointsPerRun = 500;

/** The wait before the next try after `failures` failures in a row: 10 s, doubling, at most an hour. */
export const backoffMs = (failures: number) => Math.min(10_000 * 2 ** Math.max(0, failures - 1), 3600_000);

export interface DeliveryDeps extends Core {
  /** Name lookups (tests give their own); the system's otherwise. */
  resolve?: Resolver;
}

const lockKey = (endpointId: string) => jobLockKey(`webhook:${endpointId}`);
const iso = (ms: number) => new Date(ms).toISOString();

export async function deliverWebhooks(deps: DeliveryDeps): Promise<Record<string, number> | undefined> {
  const due = await dueEndpointIds(deps.db, iso(deps.clock.now()), endpointsPerRun);
  if (due.length === 0) return undefined;
  const counts = { delivered: 0, failed: 0 };
  await Promise.all(
    due.map(async (endpointId) => {
      const token = randomUUID();
      // Held by another run (or another worker): its endpoint is left to it.
      if ((await deps.redis.set(lockKey(endpointId), token, 'PX', lockMs, 'NX')) !== 'OK') return;
      try {
        const sent = await deliverEndpoint(deps, endpointId);
        counts.delivered += sent.delivered;
        counts.failed += sent.failed;
      } catch (err) {
        // A database error of this endpoint's: the others go on; its events stay and are tried at a next run.
        deps.log.error({ err, endpointId }, 'webhook delivery failed');
      } finally {
        await deps.redis.releaseLock(lockKey(endpointId), token);
      }
    }),
  );
  webhookDeliveries.inc({ outcome: 'delivered' }, counts.delivered);
  webhookDeliveries.inc({ outcome: 'failed' }, counts.failed);
  return counts.delivered + counts.failed > 0 ? counts : undefined;
}

/** Sends an endpoint's waiting events in order until none is left, one fails, or the run's time is used. */
async function deliverEndpoint(deps: DeliveryDeps, endpointId: string): Promise<{ delivered: number; failed: number }> {
  const sent = { delivered: 0, failed: 0 };
  const started = performance.now();
  while (performance.now() - started < runBudgetMs) {
    // Read again each time: paused, changed or deleted meanwhile, or not due (another run's retry).
    const endpoint = await endpointById(deps.db, endpointId);
    if (!endpoint || endpoint.pausedAt !== null || (endpoint.retryAt !== null && Date.parse(endpoint.retryAt) > deps.clock.now())) break;
    const events = await headEvents(deps.db, endpointId, endpoint.format === 'discord' ? discordLimits.embedsPerMessage : 1);
    if (events.length === 0) break;
    const message = await messageOf(deps, endpoint, events);
    const result = await postJson(endpoint.url, message.body, message.headers, {
      rules: { allowPrivate: deps.config.webhooks.allowPrivate },
      ...(deps.resolve ? { resolve: deps.resolve } : {}),
    });
    const delivered = await settle(deps, endpoint, message, result);
    if (!delivered) {
      sent.failed++;
      break;
    }
    sent.delivered += message.events.length;
  }
  return sent;
}

async function messageOf(deps: DeliveryDeps, endpoint: Endpoint, events: QueuedEvent[]): Promise<OutboundMessage> {
  if (endpoint.format === 'standard') return standardMessage(endpoint, events[0]!, deps.config.webhooks.secretKey, deps.clock.now());
  const kills = events.filter((e) => e.type === 'kill').map((e) => e.data as KillData);
  const records = await playerRecords(
    deps.db,
    kills.flatMap((k) => [k.killer, k.victim].map((p) => ({ serverId: k.serverId, platformId: p.platformId }))),
  );
  return discordMessageOf(events, { recordOf: (serverId, platformId) => records.get(`${serverId} ${platformId}`) }, endpoint.mentionRoleId);
}

/**
 * What an answer means: delivered, a wait the receiver asked for (429), or a failure and why, with
 * the wait a 503 asked for before its next try.
 */
function outcomeOf(result: PostResult, nowMs: number): { outcome: DeliveryRecord['outcome']; error: string | null; waitMs?: number } {
  const status = result.status;
  if (status === undefined) return { outcome: 'failed', error: result.error ?? 'no answer' };
  if (status >= 200 && status < 300) return { outcome: 'delivered', error: null };
  const waitMs = status === 429 || status === 503 ? askedWaitMs(result, nowMs) : undefined;
  if (status === 429 && waitMs !== undefined) return { outcome: 'rate-limited', error: `asked to wait ${waitMs / 1000} s`, waitMs };
  if (status >= 300 && status < 400) return { outcome: 'failed', error: `redirect (HTTP ${status}) not followed` };
  const said = result.body.trim().slice(0, 300);
  const error = `HTTP ${status}${said ? `: ${said}` : ''}${waitMs !== undefined ? ` (asked to wait ${waitMs / 1000} s)` : ''}`;
  return { outcome: 'failed', error, ...(waitMs !== undefined ? { waitMs } : {}) };
}

/** Records the attempt and moves the endpoint's queue on; true when delivered. */
async function settle(deps: DeliveryDeps, endpoint: Endpoint, message: OutboundMessage, result: PostResult): Promise<boolean> {
  const nowMs = deps.clock.now();
  const { outcome, error, waitMs } = outcomeOf(result, nowMs);
  await inTransaction(deps.db, async (tx) => {
    await recordDelivery(tx, endpoint.id, {
      eventIds: message.events.map((e) => e.eventId),
      eventTypes: message.events.map((e) => e.type),
      attempt: endpoint.failedAttempts + 1,
      outcome,
      statusCode: result.status ?? null,
      error,
      at: iso(nowMs),
      durationMs: result.durationMs,
    });
    if (outcome === 'delivered')
      return markDelivered(
        tx,
        endpoint.id,
        message.events.map((e) => e.id),
      );
    if (outcome === 'rate-limited') return markWaiting(tx, endpoint.id, iso(nowMs + waitMs!));
    const failingSince = endpoint.failingSince ? Date.parse(endpoint.failingSince) : nowMs;
    if (nowMs - failingSince >= giveUpMs)
      return pauseEndpoint(tx, endpoint.id, iso(nowMs), `deliveries failed for 24 hours (since ${iso(failingSince)}); last: ${error}`);
    // The wait asked for, else the backoff's; the last try falls at 24 h exactly, whatever the waits before it.
    const retryAt = Math.min(nowMs + (waitMs ?? backoffMs(endpoint.failedAttempts + 1)), failingSince + giveUpMs);
    return markFailed(tx, endpoint.id, iso(nowMs), iso(retryAt));
  });
  if (outcome === 'failed')
    deps.log.info({ endpointId: endpoint.id, error, attempt: endpoint.failedAttempts + 1 }, 'webhook delivery failed');
  return outcome === 'delivered';
}
