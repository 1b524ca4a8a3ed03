// One RCon session: a socket of its own, the login, then the commands, the keep-alive, the silence
// check and the server messages (acknowledged at once, handed on once). It never reconnects: when it
// ends, the client starts a new one (a new socket, so nothing late from the old one gets in).
import { createSocket } from 'node:dgram';
import type { Socket } from 'node:dgram';
import { isIP } from 'node:net';
import { performance } from 'node:perf_hooks';
import { CommandTable } from './commands.ts';
import type { CommandCounts, RconUnavailableReason } from './commands.ts';
import { ackPacket, decodeServerPacket, loginPacket } from './packet.ts';
import { SeqWindow } from './seq-window.ts';

export interface RconLog {
  debug: (fields: object, message: string) => void;
  info: (fields: object, message: string) => void;
  warn: (fields: object, message: string) => void;
  error: (fields: object, message: string) => void;
}

export interface RconCounts extends CommandCounts {
  logins: number;
  refusals: number;
  disconnects: number;
  messages: number;
  repeatedMessages: number;
  acks: number;
  malformed: number;
}

export interface SessionOptions {
  host: string;
  port: number;
  password: string;
  log: RconLog;
  keepAliveMs: number;
  silentMs: number;
  commandTimeoutMs: number;
  commandTries: number;
  maxInFlight: number;
  maxQueued: number;
  counts: RconCounts;
  onLoginReply: (ok: boolean) => void;
  onMessage: (text: string) => void;
  onLost: (reason: string) => void;
}

export class Session {
  table: CommandTable | undefined;
  private readonly socket: Socket;
  private readonly seenMessages = new SeqWindow();
  private keepAliveTimer: NodeJS.Timeout | undefined;
  private silentTimer: NodeJS.Timeout | undefined;
  private lastSentAt = 0;
  private lastReceivedAt = 0;
  private ended: Promise<void> | undefined;

  constructor(private readonly opts: SessionOptions) {
    this.socket = createSocket(isIP(opts.host) === 6 ? 'udp6' : 'udp4');
    this.socket.on('message', (datagram, from) =>
      this.guard(() => {
        if (from.port === opts.port && (isIP(opts.host) === 0 || from.address === opts.host)) this.receive(datagram);
      }),
    );
    this.socket.on('error', (err) => this.guard(() => opts.onLost(`socket error: ${err.message}`)));
    this.send(loginPacket(opts.password));
  }

  /** Ends the session: timers cleared, its commands failed, the socket closed. Idempotent. */
  end(reason: RconUnavailableReason, message: string): Promise<void> {
    this.ended ??= new Promise<void>((resolve) => {
      clearTimeout(this.keepAliveTimer);
      clearTimeout(this.silentTimer);
      this.table?.failAll(reason, message);
      this.table = undefined;
      try {
        this.socket.close(() => resolve());
      } catch {
        resolve();
      }
    });
    return this.ended;
  }

  private receive(datagram: Buffer): void {
    if (this.ended) return;
    const packet = decodeServerPacket(datagram);
    if (!packet) {
      this.opts.counts.malformed++;
      this.opts.log.debug({ bytes: datagram.length }, 'RCon datagram not understood; ignored');
      return;
    }
    this.lastReceivedAt = performance.now();
    if (packet.type === 'message') {
      // Acknowledged before anything else: without a timely ack the server resends, then drops us.
      this.send(ackPacket(packet.seq));
      this.opts.counts.acks++;
      if (!this.table) return;
      if (!this.seenMessages.add(packet.seq)) {
        this.opts.counts.repeatedMessages++;
        return;
      }
      this.opts.counts.messages++;
      this.opts.onMessage(packet.text.toString('utf8'));
    } else if (packet.type === 'login-reply') {
      if (this.table) return;
      if (packet.ok) this.begin();
      this.opts.onLoginReply(packet.ok);
    } else {
      this.table?.reply(packet);
    }
  }

  private begin(): void {
    const { opts } = this;
    this.table = new CommandTable({
      maxInFlight: opts.maxInFlight,
      maxQueued: opts.maxQueued,
      timeoutMs: opts.commandTimeoutMs,
      tries: opts.commandTries,
      counts: opts.counts,
      send: (packet) => {
        this.lastSentAt = performance.now();
        this.send(packet);
      },
    });
    this.lastSentAt = this.lastReceivedAt = performance.now();
    this.keepAliveTimer = setTimeout(() => this.keepAlive(), opts.keepAliveMs);
    this.silentTimer = setTimeout(() => this.checkSilence(), opts.silentMs);
  }

  private keepAlive(): void {
    const idleMs = performance.now() - this.lastSentAt;
    const due = idleMs >= this.opts.keepAliveMs - 1;
    // The empty command is the keep-alive; its reply also feeds the silence check.
    if (due) this.table?.submit('').catch(() => undefined);
    this.keepAliveTimer = setTimeout(() => this.keepAlive(), due ? this.opts.keepAliveMs : this.opts.keepAliveMs - idleMs);
  }

  private checkSilence(): void {
    const silentMs = performance.now() - this.lastReceivedAt;
    if (silentMs >= this.opts.silentMs - 1) return this.opts.onLost(`nothing received for ${Math.round(silentMs)} ms`);
    this.silentTimer = setTimeout(() => this.checkSilence(), this.opts.silentMs - silentMs);
  }

  private send(packet: Buffer): void {
    if (this.ended) return;
    try {
      this.socket.send(packet, this.opts.port, this.opts.host, (err) => {
        if (err) this.opts.log.debug({ err: err.message }, 'RCon send failed');
      });
    } catch (err) {
      this.opts.log.debug({ err: (err as Error).message }, 'RCon send failed');
    }
  }

  /** Nothing thrown in a socket callback escapes it. */
  private guard(fn: () => void): void {
    try {
      fn();
    } catch (err) {
      this.opts.log.error({ err }, 'RCon datagram handling failed; skipped');
    }
  }
}
