// One outbound POST of a webhook: to a destination checked again now (src/webhooks/destination.ts),
// through a lookup that connects only to checked addresses, with no redirect followed (a 3xx is
// the receiver's answer, and a failure), a time limit on the whole exchange, and at most 64 kB of
// the answer read. Never throws: every outcome is a result.
import http from 'node:http';
import https from 'node:https';
import { checkingLookup, refusedUrl, systemResolver } from './destination.ts';
import type { DestinationRules, Resolver } from './destination.ts';

export const responseLimitBytes = 64 * 1024;
export const requestTimeoutMs = 10_000;

export interface PostResult {
  /** The answer's status, when one came. */
  status?: number;
  /** The answer's body (its first 64 kB), as text. */
  body: string;
  /** The answer's Retry-After header, when it has one. */
  retryAfter?: string;
  /** Why no usable answer came: refused destination, network error, time limit. */
  error?: string;
  durationMs: number;
}

export interface PostOptions {
  rules: DestinationRules;
  timeoutMs?: number;
  resolve?: Resolver;
}

export async function postJson(url: string, body: string, headers: Record<string, string>, options: PostOptions): Promise<PostResult> {
  const started = performance.now();
  const took = () => Math.round(performance.now() - started);
  const refused = refusedUrl(url, options.rules);
  if (refused) return { body: '', error: refused, durationMs: 0 };
  const target = new URL(url);
  const client = target.protocol === 'https:' ? https : http;
  return new Promise<PostResult>((resolve) => {
    let settled = false;
    const finish = (result: Omit<PostResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...result, durationMs: took() });
    };
    const req = client.request(
      target,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), ...headers },
        lookup: checkingLookup(options.rules, options.resolve ?? systemResolver) as never,
        // A socket of its own: no connection of another destination's lookup is reused.
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const retryAfter = res.headers['retry-after'];
        const done = () =>
          finish({ status: res.statusCode, body: Buffer.concat(chunks).toString('utf8'), ...(retryAfter ? { retryAfter } : {}) });
        res.on('data', (chunk: Buffer) => {
          const room = responseLimitBytes - size;
          chunks.push(chunk.subarray(0, Math.max(0, room)));
          size += chunk.length;
          // Enough read: the rest of a long answer is not waited for.
          if (size >= responseLimitBytes) {
            done();
            res.destroy();
          }
        });
        res.on('end', done);
        res.on('error', done);
      },
    );
    const timeoutMs = options.timeoutMs ?? requestTimeoutMs;
    const timer = setTimeout(() => {
      finish({ body: '', error: `no answer within ${timeoutMs / 1000} s` });
      req.destroy();
    }, timeoutMs);
    req.on('error', (err: NodeJS.ErrnoException) =>
      finish({ body: '', error: err.code && !err.message.includes(err.code) ? `${err.code}: ${err.message}` : err.message }),
    );
    req.end(body);
  });
}
