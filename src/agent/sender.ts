// Sends the agent's events to ingestion in batches of at most `batchMax` events or `batchIntervalMs`,
// one batch in flight at a time (so the service applies them in log order). A batch is retried
// with backoff on network errors, 5xx and 429 (honouring Retry-After) until it is acknowledged:
// no line is ever dropped. While one is in flight the next one fills; when that one is full the
// reader waits, so memory stays at two batches however long the service is down.
import { setTimeout as delay } from 'node:timers/promises';
import type { WireEvent } from '../ingest/events.ts';

export interface SenderOptions {
  url: string;
  serverId: string;
  token: string;
  batchMax: number;
  batchIntervalMs: number;
  retryBaseMs: number;
  retryMaxMs: number;
  requestTimeoutMs: number;
  /** Aborted when the agent must stop now: a batch still being retried is given up (and re-read next start). */
  hardStop: AbortSignal;
  onAck: (progress: Map<string, number>) => Promise<void>;
  log: AgentLog;
}

export interface AgentLog {
  debug?: (fields: object, message: string) => void;
  info: (fields: object, message: string) => void;
  warn: (fields: object, message: string) => void;
  error: (fields: object, message: string) => void;
}

/** The service refused a batch for good (4xx other than 429): the agent stops and says why. */
export class AgentRefused extends Error {}
/** The agent was told to stop while a batch was still unacknowledged. */
export class AgentStopped extends Error {}

interface Batch {
  events: WireEvent[];
  /** File name -> byte offset up to which every line is in this batch or an earlier one. */
  progress: Map<string, number>;
}

export interface SenderCounts {
  batches: number;
  sent: number;
  accepted: number;
  duplicates: number;
  rejected: number;
  retries: number;
}

export class Sender {
  readonly counts: SenderCounts = { batches: 0, sent: 0, accepted: 0, duplicates: 0, rejected: 0, retries: 0 };
  private current: Batch = { events: [], progress: new Map() };
  private inFlight: Promise<void> = Promise.resolve();
  private failure: Error | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly opts: SenderOptions) {}

  /** Adds an event; waits while the batch before is still unacknowledged and this one is full. */
  async add(event: WireEvent): Promise<void> {
    this.throwIfFailed();
    this.current.events.push(event);
    if (this.current.events.length === 1) this.timer = setTimeout(() => void this.cut().catch(() => undefined), this.opts.batchIntervalMs);
    if (this.current.events.length >= this.opts.batchMax) await this.cut();
  }

  /** Records that every line of a file up to `end` has been read (its events, if any, added). */
  mark(fileName: string, end: number): void {
    this.current.progress.set(fileName, end);
  }

  /**
   * Queues what is pending behind the batch in flight (batches are delivered and acknowledged in
   * order); resolves once the batch before it is acknowledged, which is what holds the reader back.
   */
  async cut(): Promise<void> {
    clearTimeout(this.timer);
    this.throwIfFailed();
    if (this.current.events.length === 0 && this.current.progress.size === 0) return;
    const batch = this.current;
    this.current = { events: [], progress: new Map() };
    const before = this.inFlight;
    this.inFlight = before
      .then(async () => {
        if (this.failure) return;
        await this.deliver(batch);
        await this.opts.onAck(batch.progress);
      })
      .catch((err: Error) => {
        this.failure ??= err;
      });
    await before;
    this.throwIfFailed();
  }

  /** Sends what is pending and waits until every batch is acknowledged. */
  async flush(): Promise<void> {
    await this.cut();
    await this.inFlight;
    this.throwIfFailed();
  }

  /** Stops the interval timer (the agent is done). */
  close(): void {
    clearTimeout(this.timer);
  }

  private throwIfFailed(): void {
    if (this.failure) throw this.failure;
  }

  private async deliver(batch: Batch): Promise<void> {
    if (batch.events.length === 0) return;
    this.counts.batches += 1;
    for (let attempt = 0; ; attempt++) {
      if (this.opts.hardStop.aborted) throw new AgentStopped('stopped with a batch unacknowledged; it is read again at the next start');
      const outcome = await this.post(batch.events);
      if (outcome.ok) {
        this.counts.sent += batch.events.length;
        this.counts.accepted += outcome.body.accepted;
        this.counts.duplicates += outcome.body.duplicates;
        this.counts.rejected += outcome.body.rejected.length;
        for (const r of outcome.body.rejected) {
          this.opts.log.warn(
            { eventId: batch.events[r.index]?.id, type: batch.events[r.index]?.type, error: r.error },
            'the service rejected an event',
          );
        }
        return;
      }
      if (outcome.refused) throw new AgentRefused(outcome.reason);
      this.counts.retries += 1;
      const backoff = Math.min(this.opts.retryMaxMs, this.opts.retryBaseMs * 2 ** Math.min(attempt, 20));
      const waitMs = outcome.retryAfterMs ?? backoff;
      this.opts.log.warn({ reason: outcome.reason, attempt: attempt + 1, waitMs }, 'batch not delivered; retrying');
      await delay(waitMs, undefined, { signal: this.opts.hardStop }).catch(() => undefined);
    }
  }

  private async post(
    events: WireEvent[],
  ): Promise<
    | { ok: true; body: { accepted: number; duplicates: number; rejected: { index: number; error: string }[] } }
    | { ok: false; refused: boolean; reason: string; retryAfterMs?: number }
  > {
    let res: Response;
    try {
      res = await fetch(`${this.opts.url}/api/servers/${this.opts.serverId}/events`, {
        method: 'POST',
        headers: { authorization: `Bearer ${this.opts.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ events }),
        signal: AbortSignal.any([AbortSignal.timeout(this.opts.requestTimeoutMs), this.opts.hardStop]),
      });
    } catch (err) {
      return { ok: false, refused: false, reason: `network: ${(err as Error).message}` };
    }
    const text = await res.text().catch(() => '');
    if (res.status === 200) {
      try {
        return { ok: true, body: JSON.parse(text) };
      } catch {
        return { ok: false, refused: false, reason: 'the answer was not JSON' };
      }
    }
    const reason = `HTTP ${res.status}: ${describe(text)}`;
    if (res.status === 429 || res.status >= 500 || res.status === 408) {
      return { ok: false, refused: false, reason, retryAfterMs: retryAfterMs(res.headers.get('retry-after'), maxRetryAfterMs) };
    }
    return { ok: false, refused: true, reason: `the service refused the batch: ${reason}` };
  }
}

function describe(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: string; message?: string };
    if (body.error || body.message) return `${body.error ?? ''} ${body.message ?? ''}`.trim();
  } catch {
    // not JSON: the text itself says it
  }
  return text.slice(0, 200);
}

/** A Retry-After is honoured up to this (a longer one is taken as this, then asked again). */
const maxRetryAfterMs = 600_000;

/** Retry-After as seconds or an HTTP date, capped; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, capMs: number): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const seconds = Number(header);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - Date.now();
  if (!Number.isFinite(ms)) return undefined;
  return Math.min(capMs, Math.max(0, ms));
}
