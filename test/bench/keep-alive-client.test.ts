// The bench's HTTP client (bench/keep-alive-client.ts): the load generators' figures are only as
// right as its reading of answers, its reuse of connections and its failures.
import net from 'node:net';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import fc from 'fast-check';
import { KeepAliveClient, requestBytes } from '../../bench/keep-alive-client.ts';

/** A server on a free port; closed when the test ends. */
async function listening<S extends net.Server>(t: { teardown: (f: () => void) => void }, server: S): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A client of the server (listening on a free port), and how many connections the server has accepted. */
async function clientOf(t: { teardown: (f: () => void) => void }, server: net.Server, options?: KeepAliveClient['options']) {
  let accepted = 0;
  server.on('connection', () => (accepted += 1));
  const client = new KeepAliveClient(await listening(t, server), options);
  t.teardown(() => client.close());
  return { client, connections: () => accepted };
}

function echoServer(): http.Server {
  return http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      res.setHeader('x-method', req.method!);
      res.setHeader('x-path', req.url!);
      res.setHeader('x-seen', req.headers.authorization ?? '');
      res.setHeader('Retry-After', '7');
      res.statusCode = body.length > 0 ? 201 : 200;
      res.end(body.length > 0 ? body : 'empty');
    });
  });
}

test('a request is written as prepared and its answer read whole: status, headers in lower case, body', async (t) => {
  const { client } = await clientOf(t, echoServer());
  const body = Buffer.from(JSON.stringify({ events: ['é', 'x'.repeat(300_000)] })); // larger than a socket read
  const answer = await client.request(
    requestBytes('POST', client.url('/api/a?b=1'), { authorization: 'Bearer k', 'content-type': 'application/json' }, body),
  );
  t.is(answer.status, 201);
  t.true(answer.body.equals(body));
  t.is(answer.headers['x-method'], 'POST');
  t.is(answer.headers['x-path'], '/api/a?b=1');
  t.is(answer.headers['x-seen'], 'Bearer k');
  t.is(answer.headers['retry-after'], '7');
  const get = await client.request(requestBytes('GET', client.url('/x'), {}));
  t.is(get.status, 200);
  t.is(get.body.toString(), 'empty');
});

test('requests one after another reuse one connection; at once, each has its own up to maxConnections', async (t) => {
  const { client, connections } = await clientOf(t, echoServer(), { idleMs: 4000, timeoutMs: 30_000, maxConnections: 3 });
  const get = requestBytes('GET', client.url('/'), {});
  for (let i = 0; i < 5; i++) t.is((await client.request(get)).status, 200);
  t.is(connections(), 1);
  const answers = await Promise.all(Array.from({ length: 10 }, () => client.request(get)));
  t.deepEqual(
    answers.map((a) => a.status),
    Array(10).fill(200),
  );
  t.is(connections(), 3);
});

test('an answer is read whatever the chunks it arrives in; the next one on the connection too', async (t) => {
  const answer = (n: number) => Buffer.from(`HTTP/1.1 200 OK\r\nContent-Length: ${String(n).length}\r\nX-N: ${n}\r\n\r\n${n}`);
  let cuts: number[] = [];
  const server = net.createServer((socket) => {
    let n = 0;
    socket.on('data', () => {
      // Written in pieces cut at the chosen offsets, each in its own write after a pause.
      const bytes = answer(n++);
      const at = [0, ...cuts.filter((c) => c > 0 && c < bytes.length).sort((a, b) => a - b), bytes.length];
      at.slice(1).forEach((end, i) => setTimeout(() => socket.write(bytes.subarray(at[i], end)), i * 2));
    });
  });
  const origin = await listening(t, server);
  await fc.assert(
    fc.asyncProperty(fc.array(fc.integer({ min: 0, max: 60 }), { maxLength: 6 }), async (chosen) => {
      cuts = chosen;
      const client = new KeepAliveClient(origin);
      try {
        const get = requestBytes('GET', client.url('/'), {});
        const first = await client.request(get);
        const second = await client.request(get);
        return first.body.toString() === '0' && first.headers['x-n'] === '0' && second.body.toString() === '1';
      } finally {
        client.close();
      }
    }),
    { numRuns: 40 },
  );
  t.pass();
});

test('a connection idle longer than idleMs is not used again, even before the sweep closes it', async (t) => {
  const { client, connections } = await clientOf(t, echoServer(), { idleMs: 50, timeoutMs: 30_000, maxConnections: 8 });
  const get = requestBytes('GET', client.url('/'), {});
  await client.request(get);
  await client.request(get);
  t.is(connections(), 1);
  await new Promise((resolve) => setTimeout(resolve, 120)); // the sweep runs every 500 ms
  t.is((await client.request(get)).status, 200);
  t.is(connections(), 2);
});

test('a connection the service closes after its answer is not used again', async (t) => {
  const server = http.createServer((_req, res) => {
    res.setHeader('connection', 'close');
    res.end('bye');
  });
  const { client, connections } = await clientOf(t, server);
  const get = requestBytes('GET', client.url('/'), {});
  t.is((await client.request(get)).body.toString(), 'bye');
  t.is((await client.request(get)).body.toString(), 'bye');
  t.is(connections(), 2);
});

test('a refused connection, a connection dropped mid-answer and an unanswered request fail; the client goes on', async (t) => {
  const refused = new KeepAliveClient('http://127.0.0.1:1');
  await t.throwsAsync(refused.request(requestBytes('GET', refused.url('/'), {})), { message: /ECONNREFUSED/ });
  refused.close();

  let mode: 'drop' | 'silent' | 'answer' = 'drop';
  const server = net.createServer((socket) => {
    socket.on('data', () => {
      if (mode === 'drop') socket.end('HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc');
      if (mode === 'answer') socket.write('HTTP/1.1 204 No Content\r\n\r\n');
    });
  });
  const { client } = await clientOf(t, server, { idleMs: 4000, timeoutMs: 600, maxConnections: 8 });
  const get = requestBytes('GET', client.url('/'), {});
  await t.throwsAsync(client.request(get), { message: 'ECONNRESET' });
  mode = 'silent';
  await t.throwsAsync(client.request(get), { message: 'timeout' });
  mode = 'answer';
  t.is((await client.request(get)).status, 204);
});

test('a chunked answer is refused, not misread', async (t) => {
  const server = http.createServer((_req, res) => {
    res.write('part');
    res.end();
  });
  const { client } = await clientOf(t, server);
  await t.throwsAsync(client.request(requestBytes('GET', client.url('/'), {})), { message: /known length only \(chunked\)/ });
});

test('closing the client fails what is under way and what waits for a connection, and opens none', async (t) => {
  const server = net.createServer(() => undefined); // never answers
  const { client, connections } = await clientOf(t, server, { idleMs: 4000, timeoutMs: 30_000, maxConnections: 1 });
  const get = requestBytes('GET', client.url('/'), {});
  const underWay = client.request(get);
  const waiting = client.request(get);
  await new Promise((resolve) => setTimeout(resolve, 50));
  client.close();
  await t.throwsAsync(underWay, { message: 'client closed' });
  await t.throwsAsync(waiting, { message: 'client closed' });
  await t.throwsAsync(client.request(get), { message: 'client closed' });
  await new Promise((resolve) => setTimeout(resolve, 50));
  t.is(connections(), 1);
});
