// The webhooks scenario's receivers: one process (PORT from the environment) standing for 500
// endpoints' receivers, each its own path, /hook/<n>. The scenario says which are slow (an answer
// after SLOW_MS) and which fail (500); the others answer 204 at once. Each kill that arrives is
// timed from its event's time (a standard body's `timestamp`, a Discord embed's) to its arrival:
// its delivery lag, kept per kind of receiver. GET /health answers when listening; GET
// /stats?from=<epoch ms> gives the lags of the kills whose time is at or after `from`.
import http from 'node:http';
import process from 'node:process';
import { Latencies, percentile } from './latencies.ts';

const slowMs = Number(process.env.SLOW_MS ?? 3000);
const slow = new Set((process.env.SLOW ?? '').split(',').filter(Boolean).map(Number));
const failing = new Set((process.env.FAILING ?? '').split(',').filter(Boolean).map(Number));

/** A kill's time and arrival, by kind of receiver. */
const arrivals = { healthy: [] as [number, number][], slow: [] as [number, number][] };
let failedAnswers = 0;

function kill(kind: 'healthy' | 'slow', iso: string, at: number) {
  const ts = Date.parse(iso);
  if (!Number.isNaN(ts)) arrivals[kind].push([ts, at]);
}

function record(kind: 'healthy' | 'slow', body: string, at: number) {
  const parsed = JSON.parse(body) as { type?: string; timestamp?: string; embeds?: { title: string; timestamp: string }[] };
  if (parsed.type === 'kill' && parsed.timestamp) kill(kind, parsed.timestamp, at);
  for (const e of parsed.embeds ?? []) if (e.title.includes(' killed ')) kill(kind, e.timestamp, at);
}

function lags(kind: 'healthy' | 'slow', fromMs: number) {
  const l = new Latencies();
  for (const [ts, at] of arrivals[kind]) if (ts >= fromMs) l.add(at - ts);
  const sorted = l.sorted();
  return { kills: l.count, p50Ms: percentile(sorted, 50), p99Ms: percentile(sorted, 99), maxMs: percentile(sorted, 100) };
}

const server = http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://receiver');
  if (req.method === 'GET') {
    if (url.pathname === '/stats') {
      const from = Number(url.searchParams.get('from') ?? 0);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ healthy: lags('healthy', from), slow: lags('slow', from), failedAnswers }));
      return;
    }
    res.writeHead(url.pathname === '/health' ? 200 : 404).end();
    return;
  }
  const n = Number(url.pathname.split('/')[2]);
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    if (failing.has(n)) {
      failedAnswers += 1;
      res.writeHead(500).end('down');
      return;
    }
    const answer = () => {
      record(slow.has(n) ? 'slow' : 'healthy', Buffer.concat(chunks).toString('utf8'), Date.now());
      res.writeHead(204).end();
    };
    if (slow.has(n)) setTimeout(answer, slowMs);
    else answer();
  });
});

server.listen(Number(process.env.PORT ?? 4999), '127.0.0.1');
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  });
}
