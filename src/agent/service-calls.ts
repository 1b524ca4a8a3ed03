// The agent's calls to the service beside its event batches: the command long poll, results, the
// active bans. With the ingest token, a timeout, and answers read at most so far.
import { readUpTo } from './bounded-body.ts';

export interface ServiceTarget {
  url: string;
  serverId: string;
  token: string;
}

export interface ServiceAnswer {
  status: number;
  headers: Headers;
  bytes: Buffer;
  /** The body was longer than allowed (and was not read further). */
  over: boolean;
}

export async function callService(
  target: ServiceTarget,
  path: string,
  init: {
    method?: 'GET' | 'POST';
    body?: unknown;
    headers?: Record<string, string>;
    timeoutMs: number;
    maxBytes: number;
    signal?: AbortSignal;
  },
): Promise<ServiceAnswer> {
  const signal = init.signal ? AbortSignal.any([init.signal, AbortSignal.timeout(init.timeoutMs)]) : AbortSignal.timeout(init.timeoutMs);
  const res = await fetch(`${target.url}/api/servers/${target.serverId}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      authorization: `Bearer ${target.token}`,
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...init.headers,
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    signal,
  });
  const { bytes, over } = await readUpTo(res, init.maxBytes);
  return { status: res.status, headers: res.headers, bytes, over };
}

/** A short description of an error answer for the log (the Error body's code and message, else its start). */
export function describeAnswer(answer: ServiceAnswer): string {
  try {
    const body = JSON.parse(answer.bytes.toString('utf8')) as { error?: string; message?: string };
    if (body.error || body.message) return `HTTP ${answer.status}: ${`${body.error ?? ''} ${body.message ?? ''}`.trim()}`;
  } catch {
    // not JSON: its first bytes say it
  }
  return `HTTP ${answer.status}: ${answer.bytes.toString('utf8', 0, 200)}`;
}
