// The commands of one logged-in RCon session: each gets a sequence number, is resent (same packet,
// same number) when its reply is late, and is failed after its last try. At most `maxInFlight` are
// outstanding, the rest wait in order: the number is one byte, so a bound well under 256 (and
// numbers handed out in turn, a number still outstanding skipped) means no two outstanding commands
// ever share one, and a late reply can only meet the command it belongs to.
import { Buffer } from 'node:buffer';
import { commandPacket } from './packet.ts';
import type { ServerPacket } from './packet.ts';

export type RconUnavailableReason = 'not-logged-in' | 'disconnected' | 'timeout' | 'closed' | 'queue-full';

/** The command got no reply: not logged in, the session dropped, no reply after its tries, the client closed or overloaded. */
export class RconUnavailable extends Error {
  override readonly name = 'RconUnavailable';
  constructor(
    readonly reason: RconUnavailableReason,
    message: string,
  ) {
    super(message);
  }
}

export interface CommandTableOptions {
  /** 1-128: half the sequence space at most, so a server can tell a resend from a number reused after wrapping. */
  maxInFlight: number;
  maxQueued: number;
  /** How long one try waits for its reply, or for the next part of a reply in parts. */
  timeoutMs: number;
  /** Sends in all, the first included. */
  tries: number;
  send: (packet: Buffer) => void;
  /** Where to count (shared across sessions by the client); a fresh record when not given. */
  counts?: CommandCounts;
}

export interface CommandCounts {
  sent: number;
  resent: number;
  replied: number;
  timedOut: number;
  /** Replies or parts for no outstanding command (late, or duplicated on the way). */
  stray: number;
}

interface Pending {
  text: Buffer;
  resolve: (reply: string) => void;
  reject: (err: RconUnavailable) => void;
  packet?: Buffer;
  tries: number;
  timer?: NodeJS.Timeout;
  parts?: (Buffer | undefined)[];
  partsLeft: number;
}

export class CommandTable {
  readonly counts: CommandCounts;
  private nextSeq = 0;
  private readonly inFlight = new Map<number, Pending>();
  private readonly queue: Pending[] = [];

  constructor(private readonly opts: CommandTableOptions) {
    if (!(opts.maxInFlight >= 1 && opts.maxInFlight <= 128)) throw new RangeError('maxInFlight must be 1-128');
    this.counts = opts.counts ?? { sent: 0, resent: 0, replied: 0, timedOut: 0, stray: 0 };
  }

  get inFlightCount(): number {
    return this.inFlight.size;
  }

  get queuedCount(): number {
    return this.queue.length;
  }

  /** Queues a command; resolves with its reply text (parts joined as bytes, then decoded). */
  submit(text: string): Promise<string> {
    return new Promise<string>((resolve, reject) => {
      if (this.queue.length >= this.opts.maxQueued) {
        reject(new RconUnavailable('queue-full', `more than ${this.opts.maxQueued} RCon commands waiting`));
        return;
      }
      this.queue.push({ text: Buffer.from(text, 'utf8'), resolve, reject, tries: 0, partsLeft: 0 });
      this.pump();
    });
  }

  /** Hands a reply (or one part of it) to its command; false when no command waits for it. */
  reply(packet: Extract<ServerPacket, { type: 'reply' | 'reply-part' }>): boolean {
    const pending = this.inFlight.get(packet.seq);
    if (!pending) {
      this.counts.stray++;
      return false;
    }
    if (packet.type === 'reply') {
      this.finish(packet.seq, pending, packet.text);
      return true;
    }
    // A part with another count than the ones kept belongs to another reply: start over with it.
    if (!pending.parts || pending.parts.length !== packet.count) {
      pending.parts = new Array<Buffer | undefined>(packet.count);
      pending.partsLeft = packet.count;
    }
    if (pending.parts[packet.index] === undefined) {
      pending.parts[packet.index] = packet.part;
      pending.partsLeft--;
      if (pending.partsLeft > 0) {
        // The reply is coming: the try waits on, so a long reply on a slow link is not cut off.
        clearTimeout(pending.timer);
        pending.timer = setTimeout(() => this.expire(packet.seq, pending), this.opts.timeoutMs);
      }
    }
    if (pending.partsLeft === 0) this.finish(packet.seq, pending, Buffer.concat(pending.parts as Buffer[]));
    return true;
  }

  /** Fails every command, outstanding or queued, and starts numbering from 0 again (a new session). */
  failAll(reason: RconUnavailableReason, message: string): void {
    const all = [...this.inFlight.values(), ...this.queue.splice(0)];
    for (const pending of this.inFlight.values()) clearTimeout(pending.timer);
    this.inFlight.clear();
    this.nextSeq = 0;
    for (const pending of all) pending.reject(new RconUnavailable(reason, message));
  }

  private finish(seq: number, pending: Pending, reply: Buffer): void {
    clearTimeout(pending.timer);
    this.inFlight.delete(seq);
    this.counts.replied++;
    pending.resolve(reply.toString('utf8'));
    this.pump();
  }

  private pump(): void {
    while (this.inFlight.size < this.opts.maxInFlight && this.queue.length > 0) {
      const pending = this.queue.shift()!;
      let seq = this.nextSeq;
      while (this.inFlight.has(seq)) seq = (seq + 1) & 0xff;
      this.nextSeq = (seq + 1) & 0xff;
      pending.packet = commandPacket(seq, pending.text);
      this.inFlight.set(seq, pending);
      this.counts.sent++;
      this.attempt(seq, pending);
    }
  }

  private attempt(seq: number, pending: Pending): void {
    pending.tries++;
    // Parts of an earlier try are dropped: if the server ran the command again, its new reply
    // may differ, and parts of two replies must never be joined.
    pending.parts = undefined;
    pending.timer = setTimeout(() => this.expire(seq, pending), this.opts.timeoutMs);
    this.opts.send(pending.packet!);
  }

  private expire(seq: number, pending: Pending): void {
    if (this.inFlight.get(seq) !== pending) return;
    if (pending.tries < this.opts.tries) {
      this.counts.resent++;
      this.attempt(seq, pending);
      return;
    }
    this.inFlight.delete(seq);
    this.counts.timedOut++;
    pending.reject(new RconUnavailable('timeout', `no reply to an RCon command after ${pending.tries} tries`));
    this.pump();
  }
}
