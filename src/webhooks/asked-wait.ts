// How long a receiver asks to be left alone: Discord's `retry_after` (seconds, in a 429's JSON
// body), or the HTTP `Retry-After` header (whole seconds, or an HTTP date) of a 429 or a 503. A
// wait is bounded: never negative, at most an hour (the longest of the worker's own waits), so an
// answer cannot park an endpoint's events for days. Pure.

/** The longest wait an answer can ask for. */
export const maxAskedWaitMs = 3600_000;

const bounded = (ms: number) => Math.min(Math.max(0, Math.ceil(ms)), maxAskedWaitMs);

/** Seconds a 429's body asks to wait (`retry_after`), or undefined when it says none. */
export function retryAfterOf(body: string): number | undefined {
  try {
    const parsed: unknown = JSON.parse(body);
    const seconds = parsed && typeof parsed === 'object' ? (parsed as { retry_after?: unknown }).retry_after : undefined;
    return typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0 ? seconds : undefined;
  } catch {
    return undefined;
  }
}

/** The wait a `Retry-After` header asks, in ms from `nowMs`, or undefined when it is absent or not understood. */
export function retryAfterHeaderMs(header: string | undefined, nowMs: number): number | undefined {
  const value = header?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  // An HTTP date (IMF-fixdate, or the obsolete forms Date.parse reads); a number with a fraction or sign is no form of it.
  if (/^[+-]?[\d.]+$/.test(value)) return undefined;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : at - nowMs;
}

/** The bounded wait an answer asks: its body's retry_after first (Discord's, to the millisecond), else its Retry-After header. */
export function askedWaitMs(answer: { body: string; retryAfter?: string }, nowMs: number): number | undefined {
  const seconds = retryAfterOf(answer.body);
  if (seconds !== undefined) return bounded(seconds * 1000);
  const ms = retryAfterHeaderMs(answer.retryAfter, nowMs);
  return ms === undefined ? undefined : bounded(ms);
}
