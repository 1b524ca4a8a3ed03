// The bench's HTTP/1.1 client for its load generators: requests written as prepared bytes on
// kept-alive sockets of node:net, one request at a time on each, answers read by their
// Content-Length. The generators share the machine's 2 cores with the service, PostgreSQL and
// Redis, while a game server or an API client sends from its own machine: node:http's client and
// agent cost about twice as much CPU a request (about 300 against 135 µs for 1,000 paced reads a
// second of the Koa hello-world, on the twelfth machine), which the service's figures paid for.
import net from 'node:net';

export interface RawAnswer {
  status: number;
  /** Header names in lower case; a repeated header keeps its last value. */
  headers: Record<string, string>;
  body: Buffer;
}

/** The bytes of one request: its headers, a Content-Length when it has a body, then the body. */
export function requestBytes(method: string, url: URL, headers: Record<string, string>, body?: Buffer): Buffer {
  const lines = [`${method} ${url.pathname}${url.search} HTTP/1.1`, `host: ${url.host}`];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  if (body) lines.push(`content-length: ${body.length}`);
  const head = Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
  return body ? Buffer.concat([head, body]) : head;
}

const headEnd = Buffer.from('\r\n\r\n');

/** The answer in `bytes` when it is complete (and whether the service closes the connection after it), or undefined while more must come. */
function answerIn(bytes: Buffer): { answer: RawAnswer; close: boolean } | undefined {
  const end = bytes.indexOf(headEnd);
  if (end < 0) return undefined;
  const [statusLine, ...lines] = bytes.toString('latin1', 0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  if (headers['transfer-encoding'])
    throw new Error(`the bench's client reads answers of a known length only (${headers['transfer-encoding']})`);
  const length = Number(headers['content-length'] ?? 0);
  if (bytes.length < end + 4 + length) return undefined;
  const answer = { status: Number(statusLine!.slice(9, 12)), headers, body: bytes.subarray(end + 4, end + 4 + length) };
  return { answer, close: headers.connection?.toLowerCase() === 'close' };
}

interface Pending {
  resolve: (answer: RawAnswer) => void;
  reject: (err: Error) => void;
  sentAt: number;
}

/** One kept-alive connection: a request at a time. */
class Connection {
  readonly socket: net.Socket;
  #received: Buffer[] = [];
  #pending: Pending | undefined;
  idleSince = performance.now();

  constructor(port: number, host: string, onIdle: (c: Connection) => void, onGone: (c: Connection) => void) {
    this.socket = net.connect(port, host);
    this.socket.setNoDelay(true);
    this.socket.on('data', (chunk: Buffer) => {
      this.#received.push(chunk);
      const bytes = this.#received.length === 1 ? chunk : Buffer.concat(this.#received);
      let complete;
      try {
        complete = answerIn(bytes);
      } catch (err) {
        this.fail(err as Error);
        return;
      }
      if (!complete) return;
      this.#received = [];
      const pending = this.#pending;
      if (!pending) {
        this.fail(new Error('an answer to no request'));
        return;
      }
      this.#pending = undefined;
      this.idleSince = performance.now();
      if (complete.close) this.socket.destroy();
      else onIdle(this);
      pending.resolve(complete.answer);
    });
    this.socket.on('error', (err) => this.fail(err));
    this.socket.on('close', () => {
      onGone(this);
      this.fail(new Error('ECONNRESET'));
    });
  }

  get sentAt(): number | undefined {
    return this.#pending?.sentAt;
  }

  send(bytes: Buffer, pending: Pending): void {
    this.#pending = pending;
    this.socket.write(bytes);
  }

  fail(err: Error): void {
    const pending = this.#pending;
    this.#pending = undefined;
    this.socket.destroy();
    pending?.reject(err);
  }
}

/** Kept-alive connections to one origin, opened as requests need them. */
export class KeepAliveClient {
  readonly #url: URL;
  readonly #idle: Connection[] = [];
  readonly #open = new Set<Connection>();
  /** Requests waiting for a connection while maxConnections are busy, in the order they came. */
  readonly #waiting: { bytes: Buffer; pending: Pending }[] = [];
  readonly #sweep: NodeJS.Timeout;
  #closed = false;

  /**
   * idleMs: an idle connection is closed this long after its last answer, before the service
   * closes it (its keep-alive timeout, 5 s): a request written as the service closes the
   * connection fails with ECONNRESET. timeoutMs: a request unanswered this long fails.
   * maxConnections: more requests at once wait for a connection (node:http's agent did the same).
   */
  constructor(
    origin: string,
    readonly options = { idleMs: 4000, timeoutMs: 30_000, maxConnections: 512 },
  ) {
    this.#url = new URL(origin);
    this.#sweep = setInterval(() => this.#sweepConnections(), 500).unref();
  }

  url(path: string): URL {
    return new URL(path, this.#url);
  }

  request(bytes: Buffer): Promise<RawAnswer> {
    return new Promise((resolve, reject) => {
      if (this.#closed) throw new Error('client closed');
      const pending = { resolve, reject, sentAt: performance.now() };
      const connection = this.#idleConnection() ?? (this.#open.size < this.options.maxConnections ? this.#connect() : undefined);
      if (connection) connection.send(bytes, pending);
      else this.#waiting.push({ bytes, pending });
    });
  }

  /**
   * The most recently used idle connection young enough to reuse: checked here too, not only by the
   * sweep, whose timer a busy generator runs late (a batch sent on a connection idle for 5 s met
   * the service closing it).
   */
  #idleConnection(): Connection | undefined {
    const now = performance.now();
    for (let c = this.#idle.pop(); c; c = this.#idle.pop()) {
      if (now - c.idleSince <= this.options.idleMs) return c;
      c.fail(new Error('idle'));
    }
    return undefined;
  }

  /** A connection free again takes the first waiting request, or waits for the next. */
  #free(c: Connection): void {
    const next = this.#waiting.shift();
    if (next) c.send(next.bytes, next.pending);
    else this.#idle.push(c);
  }

  /** Fails what is under way or waiting; nothing is sent after. */
  close(): void {
    this.#closed = true;
    clearInterval(this.#sweep);
    for (const { pending } of this.#waiting.splice(0)) pending.reject(new Error('client closed'));
    for (const c of this.#open) c.fail(new Error('client closed'));
  }

  #connect(): Connection {
    const connection = new Connection(
      Number(this.#url.port),
      this.#url.hostname,
      (c) => this.#free(c),
      (c) => {
        this.#open.delete(c);
        const at = this.#idle.indexOf(c);
        if (at >= 0) this.#idle.splice(at, 1);
        const next = this.#closed ? undefined : this.#waiting.shift();
        if (next) this.#connect().send(next.bytes, next.pending);
      },
    );
    this.#open.add(connection);
    return connection;
  }

  #sweepConnections(): void {
    const now = performance.now();
    for (const c of this.#open) {
      const sentAt = c.sentAt;
      if (sentAt !== undefined && now - sentAt > this.options.timeoutMs) c.fail(new Error('timeout'));
      else if (sentAt === undefined && now - c.idleSince > this.options.idleMs) c.fail(new Error('idle'));
    }
  }
}
