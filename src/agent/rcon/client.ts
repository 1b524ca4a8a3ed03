// A BattlEye RCon client for the agent (BERConProtocol.txt v2 over UDP): logs in, keeps the session
// alive, resends late commands, hands on each server message once, and when the session is lost
// (the game restarting, the server silent) logs in again with capped, jittered, exponential backoff.
// A refused password is logged once and retried slowly: the admin may fix the config meanwhile.
// Failure policy: a command never waits for a session; without one it fails at once (RconUnavailable),
// and the caller decides whether to try again later. The password is never logged.
import { RconUnavailable } from './commands.ts';
import { Listeners } from './events.ts';
import { Session } from './session.ts';
import type { RconCounts, RconLog } from './session.ts';

export { RconUnavailable } from './commands.ts';
export type { RconUnavailableReason } from './commands.ts';
export type { RconCounts, RconLog } from './session.ts';

export const rconDefaults = {
  /** An empty command after this long without any: the server drops a client silent for 45 s. */
  keepAliveMs: 30_000,
  /** How long one try of a command waits for its reply (or its next part) before the same packet is resent. */
  commandTimeoutMs: 2_000,
  /** Sends of a command in all before it fails. */
  commandTries: 3,
  /** Commands outstanding at once (1-128); the rest wait in order, up to maxQueued. */
  maxInFlight: 8,
  maxQueued: 1_000,
  loginTimeoutMs: 3_000,
  /** Nothing received for this long (keep-alive replies included): the session is taken as lost. Must exceed keepAliveMs. */
  silentMs: 50_000,
  /** Backoff between login attempts: doubling from the base up to the cap, each drawn in [50%, 100%]. */
  reconnectBaseMs: 1_000,
  reconnectMaxMs: 30_000,
  /** After a refused password: not a network fault, so no backoff game, one slow retry. */
  refusedRetryMs: 60_000,
};

export type RconTimings = typeof rconDefaults;
export type RconClientOptions = {
  host: string;
  port: number;
  password: string;
  log: RconLog;
  random?: () => number;
} & Partial<RconTimings>;

export type RconEvents = {
  /** Logged in (again). */
  login: [];
  /** A logged-in session ended; its commands have failed. */
  disconnect: [reason: string];
  /** The server refused the password. */
  refused: [];
  /** A server message (chat, connects, kicks), once each. */
  message: [text: string];
};

export type RconStatus = 'idle' | 'logging-in' | 'connected' | 'waiting' | 'refused' | 'closed';

export class RconClient {
  readonly counts: RconCounts = {
    sent: 0,
    resent: 0,
    replied: 0,
    timedOut: 0,
    stray: 0,
    logins: 0,
    refusals: 0,
    disconnects: 0,
    messages: 0,
    repeatedMessages: 0,
    acks: 0,
    malformed: 0,
  };
  private readonly opts: RconTimings & { host: string; port: number; password: string; log: RconLog; random: () => number };
  private readonly listeners: Listeners<RconEvents>;
  private state: RconStatus = 'idle';
  private session: Session | undefined;
  private timer: NodeJS.Timeout | undefined;
  private failures = 0;
  private refusedLogged = false;
  private closing: Promise<void> | undefined;

  constructor(options: RconClientOptions) {
    const given = Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
    this.opts = { ...rconDefaults, random: Math.random, ...given } as RconClient['opts'];
    // An idle session hears from the server only in reply to keep-alives: a shorter silence limit would drop it.
    if (this.opts.silentMs <= this.opts.keepAliveMs) throw new RangeError('silentMs must exceed keepAliveMs');
    this.listeners = new Listeners((event, err) => this.opts.log.error({ event, err }, 'an RCon listener threw'));
  }

  /** Logged in now. */
  get connected(): boolean {
    return this.state === 'connected';
  }

  get status(): RconStatus {
    return this.state;
  }

  /** Commands sent and not yet answered (at most maxInFlight). */
  get inFlight(): number {
    return this.session?.table?.inFlightCount ?? 0;
  }

  on<K extends keyof RconEvents>(event: K, listener: (...args: RconEvents[K]) => void): () => void {
    return this.listeners.on(event, listener);
  }

  start(): void {
    if (this.state === 'idle') this.connect();
  }

  /** The config changed: a refusal is logged again, and a client waiting to retry tries the new one now. */
  setPassword(password: string): void {
    this.opts.password = password;
    this.refusedLogged = false;
    if (this.state === 'waiting' || this.state === 'refused') {
      clearTimeout(this.timer);
      this.connect();
    }
  }

  /** Runs a command; resolves with its reply ('' when the server answers nothing). */
  command(text: string): Promise<string> {
    const table = this.state === 'connected' ? this.session?.table : undefined;
    if (!table)
      return Promise.reject(
        new RconUnavailable(this.state === 'closed' ? 'closed' : 'not-logged-in', `RCon is not logged in (${this.state})`),
      );
    return table.submit(text);
  }

  /** Stops for good: every timer cleared, the socket closed, pending commands failed. Idempotent. */
  close(): Promise<void> {
    if (this.closing) return this.closing;
    const wasConnected = this.state === 'connected';
    this.state = 'closed';
    clearTimeout(this.timer);
    this.closing = this.session?.end('closed', 'the RCon client was closed') ?? Promise.resolve();
    this.session = undefined;
    if (wasConnected) this.listeners.emit('disconnect', 'closed');
    return this.closing;
  }

  private connect(): void {
    this.state = 'logging-in';
    const { opts } = this;
    const session: Session = new Session({
      ...opts,
      counts: this.counts,
      onLoginReply: (ok) => session === this.session && (ok ? this.loggedIn() : this.refused()),
      onMessage: (text) => session === this.session && this.listeners.emit('message', text),
      onLost: (reason) => session === this.session && this.lose(reason),
    });
    this.session = session;
    this.timer = setTimeout(() => this.lose('no answer to the login'), opts.loginTimeoutMs);
  }

  private loggedIn(): void {
    clearTimeout(this.timer);
    this.state = 'connected';
    this.failures = 0;
    this.refusedLogged = false;
    this.counts.logins++;
    this.opts.log.info({ host: this.opts.host, port: this.opts.port }, 'RCon logged in');
    this.listeners.emit('login');
  }

  private refused(): void {
    clearTimeout(this.timer);
    this.counts.refusals++;
    if (!this.refusedLogged) {
      this.refusedLogged = true;
      this.opts.log.warn(
        { host: this.opts.host, port: this.opts.port, retryMs: this.opts.refusedRetryMs },
        'RCon password refused: check RConPassword in BEServer_x64.cfg',
      );
    }
    void this.session?.end('not-logged-in', 'password refused');
    this.session = undefined;
    this.state = 'refused';
    this.timer = setTimeout(() => this.connect(), this.opts.refusedRetryMs);
    this.listeners.emit('refused');
  }

  /** The session, or the attempt at one, is over: report it if it was live, and log in again later. */
  private lose(reason: string): void {
    if (this.state !== 'logging-in' && this.state !== 'connected') return;
    const wasConnected = this.state === 'connected';
    clearTimeout(this.timer);
    void this.session?.end('disconnected', `RCon session lost: ${reason}`);
    this.session = undefined;
    const { reconnectBaseMs, reconnectMaxMs } = this.opts;
    const delayMs = Math.min(reconnectMaxMs, reconnectBaseMs * 2 ** Math.min(this.failures, 20)) * (0.5 + this.opts.random() / 2);
    this.failures++;
    this.state = 'waiting';
    this.timer = setTimeout(() => this.connect(), delayMs);
    if (wasConnected) {
      this.counts.disconnects++;
      this.opts.log.warn({ host: this.opts.host, port: this.opts.port, reason }, 'RCon session lost; logging in again');
      this.listeners.emit('disconnect', reason);
    } else {
      this.opts.log.debug({ reason, attempt: this.failures, retryInMs: Math.round(delayMs) }, 'RCon login attempt failed');
    }
  }
}
