// A fake BattlEye RCon server on UDP, for tests, end-to-end runs and benchmarks. It speaks the
// protocol of BERConProtocol.txt v2 (login, commands with sequence numbers and multipart replies,
// server messages resent until acknowledged), keeps a player table (see fake-battleye-game.ts),
// records what clients did, and can lose datagrams on purpose. Behaviour the spec leaves open, and
// what is assumed here:
// - A command resent with a sequence number whose command was already run (same text) is answered
//   again from the reply kept, not run twice. Seen numbers are forgotten 128 numbers later, as the
//   number wraps. A real server might run it again: clients must not rely on either.
// - A client not logged in gets no answer to commands; a new login from the same address starts a
//   new session (numbering from 0). `#shutdown` is answered, then the server stops (socket closed).
// - Every logged-in client gets every message ("RCon admin #n (ip:port) logged in" included).
import { createSocket } from 'node:dgram';
import type { Socket } from 'node:dgram';
import { EventEmitter } from 'node:events';
import { decodeClientPacket, encodeServerPacket } from '../../src/agent/rcon/packet.ts';
import type { ClientPacket, ServerPacket } from '../../src/agent/rcon/packet.ts';
import { FakeGame } from './fake-battleye-game.ts';
import type { JoinOptions } from './fake-battleye-game.ts';
import { Losses, waitFor } from './fake-battleye-records.ts';
import type { CommandRecord, Direction, FakeRecords } from './fake-battleye-records.ts';
import { FakeSession } from './fake-battleye-session.ts';

export type { FakePlayer, JoinOptions } from './fake-battleye-game.ts';
export type { CommandRecord, Direction, FakeRecords, MessageRecord } from './fake-battleye-records.ts';

export interface FakeBattlEyeOptions {
  password: string;
  /** 0 (default): any free port; `port` tells which. */
  port?: number;
  /** Reply bytes per datagram before a reply is split into parts (default 1400; assumed). */
  splitBytes?: number;
  /** The order parts go out in (default in order). */
  partOrder?: 'in-order' | 'reverse' | 'shuffle';
  /** Time between one part of a reply and the next (default 0: all at once), as on a slow link. */
  partDelayMs?: number;
  /** Server messages: sent this many times in all (default 5) ... */
  messageSends?: number;
  /** ... this far apart (default 2000 ms); unacknowledged after the last wait, the client is dropped. */
  messageResendMs?: number;
  /** A logged-in client sending no command for this long is dropped (default 45 000 ms). */
  clientTimeoutMs?: number;
}

export class FakeBattlEye {
  readonly host = '127.0.0.1';
  /** Everything clients did, in order; each record has `at` (Date.now()). */
  readonly records: FakeRecords = {
    logins: [],
    commands: [],
    repeats: [],
    keepAlives: [],
    acks: [],
    messages: [],
    drops: [],
    malformed: 0,
  };
  readonly game: FakeGame;
  private socket: Socket | undefined;
  private readonly sessions = new Map<string, FakeSession>();
  private readonly losses = new Losses(this.records);
  private readonly changes = new EventEmitter();
  private held: (() => void)[] | undefined;
  /** After `#shutdown`: nothing is answered any more, and the socket closes a moment later. */
  private down = false;
  private shutdownTimer: NodeJS.Timeout | undefined;
  private adminIds = 0;

  private constructor(readonly options: Required<FakeBattlEyeOptions>) {
    this.game = new FakeGame((text) => this.broadcast(text));
    this.changes.setMaxListeners(0);
  }

  static async start(options: FakeBattlEyeOptions): Promise<FakeBattlEye> {
    const fake = new FakeBattlEye({
      port: 0,
      splitBytes: 1400,
      partOrder: 'in-order',
      partDelayMs: 0,
      messageSends: 5,
      messageResendMs: 2000,
      clientTimeoutMs: 45_000,
      ...options,
    });
    await fake.restart();
    return fake;
  }

  get port(): number {
    return this.options.port;
  }

  /** Logged-in clients. */
  get clients(): { address: string; port: number; adminId: number }[] {
    return [...this.sessions.values()].filter((s) => s.loggedIn).map((s) => ({ address: s.address, port: s.port, adminId: s.adminId }));
  }

  join(options: JoinOptions): number {
    return this.game.join(options);
  }

  leave(number: number): void {
    this.game.leave(number);
  }

  /** Sends a server message to every logged-in client (resent until acknowledged). */
  broadcast(text: string): void {
    for (const s of this.sessions.values()) if (s.loggedIn) s.message(text);
  }

  /** Loses the next `count` datagrams going that way. */
  dropNext(direction: Direction, count = 1): void {
    this.losses.add(direction, () => true, count);
  }

  /** Loses the first `times` datagrams going that way for which `match` is true. */
  dropWhen(direction: 'to-server', match: (p: ClientPacket) => boolean, times?: number): void;
  dropWhen(direction: 'to-client', match: (p: ServerPacket) => boolean, times?: number): void;
  dropWhen(direction: Direction, match: (p: never) => boolean, times = 1): void {
    this.losses.add(direction, match as (p: ClientPacket | ServerPacket) => boolean, times);
  }

  /** Replies wait (commands are still run) until `releaseReplies()`. */
  holdReplies(): void {
    this.held ??= [];
  }

  releaseReplies(): void {
    const held = this.held ?? [];
    this.held = undefined;
    for (const send of held) send();
  }

  /** Sends raw bytes from the server's port to every logged-in client (malformed datagrams, say). */
  sendRaw(datagram: Uint8Array): void {
    for (const s of this.sessions.values()) if (s.loggedIn) this.socket?.send(datagram, s.port, s.address);
  }

  /** The client sessions are forgotten, as when they time out: their commands get no answer. */
  forgetClients(): void {
    for (const s of this.sessions.values()) s.end();
    this.sessions.clear();
  }

  /** Resolves with `probe()`'s first truthy value, checked now and after every change; rejects after `timeoutMs`. */
  waitFor<T>(probe: () => T | undefined | false | null, timeoutMs = 5000, what = 'a condition'): Promise<T> {
    return waitFor(this.changes, probe, timeoutMs, what);
  }

  waitForCommand(match: (c: CommandRecord) => boolean, timeoutMs = 5000): Promise<CommandRecord> {
    return this.waitFor(() => this.records.commands.find(match), timeoutMs, 'a command');
  }

  /** The game stops: the socket closes, every session is forgotten. */
  async stop(): Promise<void> {
    clearTimeout(this.shutdownTimer);
    this.forgetClients();
    const socket = this.socket;
    this.socket = undefined;
    if (socket) await new Promise<void>((resolve) => socket.close(() => resolve()));
  }

  /** The game starts (again) on the same port, with no client logged in. */
  async restart(): Promise<void> {
    await this.stop();
    this.down = false;
    const socket = createSocket('udp4');
    socket.on('message', (datagram, from) => this.receive(socket, datagram, from.address, from.port));
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.bind(this.options.port, this.host, () => {
        socket.off('error', reject);
        resolve();
      });
    });
    this.options.port = socket.address().port;
    this.socket = socket;
  }

  close(): Promise<void> {
    this.held = undefined;
    return this.stop();
  }

  private receive(socket: Socket, datagram: Buffer, address: string, port: number): void {
    if (socket !== this.socket || this.down) return;
    const packet = decodeClientPacket(datagram);
    if (!packet) {
      this.records.malformed++;
      return;
    }
    if (this.losses.dropped('to-server', packet)) return;
    const key = `${address}:${port}`;
    if (packet.type === 'login') {
      this.sessions.get(key)?.end();
      this.sessions.delete(key);
      const ok = packet.password.equals(Buffer.from(this.options.password, 'utf8'));
      this.records.logins.push({ client: key, ok, at: Date.now() });
      const session = new FakeSession(address, port, ok ? this.adminIds++ : -1, this.options, this.records, {
        send: (p) => this.send(address, port, p),
        execute: (text, adminId) => this.game.execute(text, adminId),
        shutdown: () => {
          // The reply already handed to the socket still goes out; then the server is gone.
          this.down = true;
          this.shutdownTimer = setTimeout(() => void this.stop(), 20);
        },
        drop: () => this.sessions.get(key) === session && this.sessions.delete(key),
        changed: () => this.changes.emit('change'),
      });
      if (ok) this.sessions.set(key, session);
      this.send(address, port, { type: 'login-reply', ok });
      if (ok) this.broadcast(`RCon admin #${session.adminId} (${key}) logged in`);
    } else {
      this.sessions.get(key)?.receive(packet);
    }
    this.changes.emit('change');
  }

  private send(address: string, port: number, packet: ServerPacket): void {
    if (this.losses.dropped('to-client', packet)) return;
    const go = () => {
      try {
        this.socket?.send(encodeServerPacket(packet), port, address);
      } catch {
        /* stopped meanwhile */
      }
    };
    if (this.held && (packet.type === 'reply' || packet.type === 'reply-part')) this.held.push(go);
    else go();
  }
}
