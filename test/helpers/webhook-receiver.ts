// A local HTTP receiver of webhooks on 127.0.0.1: records every request (headers and raw body) and
// answers what the test tells it, request by request (the last answer given repeats).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ExecutionContext } from 'ava';

export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface Answer {
  status: number;
  body?: string;
  headers?: Record<string, string>;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** Answers for the next requests, in order; the last one repeats. */
  answer: (...answers: Answer[]) => void;
}

export async function receiver(t: ExecutionContext, path = '/hook'): Promise<Receiver> {
  const received: Received[] = [];
  let answers: Answer[] = [{ status: 204 }];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const a = answers.length > 1 ? answers.shift()! : answers[0]!;
      res.writeHead(a.status, { 'content-type': 'application/json', ...a.headers });
      res.end(a.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    received,
    answer: (...next) => {
      answers = next;
    },
  };
}
