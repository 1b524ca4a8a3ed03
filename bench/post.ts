// The bench's POST for its load generators, on node:http with kept-alive connections: a game
// server posts from its own machine, so the generator, which shares this one's 2 cores with the
// service, should cost as little CPU as it can (fetch cost about four times as much a request).
import http from 'node:http';

// An idle connection is closed after 4 s, a second before the service closes it (its keep-alive
// timeout, 5 s, which Node 20's agent would otherwise take as its own): a batch sent on a
// connection the service is closing at that moment fails with ECONNRESET. undici, behind the
// agent's fetch, keeps such a margin itself.
const agent = new http.Agent({ keepAlive: true, maxSockets: 512, timeout: 4000 });

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

export function post(url: string, headers: Record<string, string>, body: string | Buffer): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', agent, headers: { ...headers, 'content-length': Buffer.byteLength(body) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString() }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}
