// One RCon client as the fake BattlEye server sees it: its commands (run once per sequence number,
// a repeat answered from the reply kept), its keep-alives, the server messages sent to it (resent
// until acknowledged, the client dropped when they never are) and its idle time (dropped after
// clientTimeoutMs without a command, as the real server does after 45 s).
import { SeqWindow } from '../../src/agent/rcon/seq-window.ts';
import type { ClientPacket, ServerPacket } from '../../src/agent/rcon/packet.ts';
import type { Outcome } from './fake-battleye-game.ts';
import type { FakeRecords, MessageRecord } from './fake-battleye-records.ts';

export interface SessionOptions {
  splitBytes: number;
  partOrder: 'in-order' | 'reverse' | 'shuffle';
  partDelayMs: number;
  messageSends: number;
  messageResendMs: number;
  clientTimeoutMs: number;
}

export interface SessionHooks {
  send: (packet: ServerPacket) => void;
  execute: (text: string, adminId: number) => Outcome;
  shutdown: () => void;
  /** The server drops this client (idle, or a message never acknowledged). */
  drop: () => void;
  changed: () => void;
}

export class FakeSession {
  readonly loggedIn: boolean;
  private readonly seen = new SeqWindow();
  private readonly kept = new Map<number, { text: Buffer; packets: ServerPacket[] }>();
  private readonly unacked = new Map<number, { record: MessageRecord; timer: NodeJS.Timeout | undefined }>();
  private nextMessageSeq = 0;
  private lastCommandAt = Date.now();
  private idleTimer: NodeJS.Timeout | undefined;
  private readonly partTimers = new Set<NodeJS.Timeout>();
  private ended = false;

  constructor(
    readonly address: string,
    readonly port: number,
    readonly adminId: number,
    private readonly options: SessionOptions,
    private readonly records: FakeRecords,
    private readonly hooks: SessionHooks,
  ) {
    this.loggedIn = adminId >= 0;
    if (this.loggedIn) this.idleTimer = setTimeout(() => this.checkIdle(), options.clientTimeoutMs);
  }

  get client(): string {
    return `${this.address}:${this.port}`;
  }

  receive(packet: ClientPacket): void {
    if (this.ended || !this.loggedIn) return;
    const at = Date.now();
    if (packet.type === 'ack') {
      this.records.acks.push({ client: this.client, seq: packet.seq, at });
      const waiting = this.unacked.get(packet.seq);
      if (!waiting) return;
      clearTimeout(waiting.timer);
      waiting.record.acked = true;
      this.unacked.delete(packet.seq);
      return;
    }
    if (packet.type !== 'command') return;
    const { seq, text } = packet;
    this.lastCommandAt = at;
    if (text.length === 0) {
      this.records.keepAlives.push({ client: this.client, seq, at });
      this.hooks.send({ type: 'reply', seq, text: Buffer.alloc(0) });
      return;
    }
    const kept = this.kept.get(seq);
    if (this.seen.has(seq) && kept?.text.equals(text)) {
      this.records.repeats.push({ client: this.client, seq, text: text.toString('utf8'), at });
      this.sendReply(kept.packets);
      return;
    }
    this.seen.add(seq);
    this.records.commands.push({ client: this.client, seq, text: text.toString('utf8'), at });
    const outcome = this.hooks.execute(text.toString('utf8'), this.adminId);
    const packets = this.split(seq, Buffer.from(outcome.reply, 'utf8'));
    this.kept.set(seq, { text, packets });
    this.sendReply(packets);
    if (outcome.shutdown) this.hooks.shutdown();
  }

  /** Sends a server message, resending it until acknowledged; after the last try the client is dropped. */
  message(text: string): void {
    if (this.ended) return;
    const seq = this.nextMessageSeq;
    this.nextMessageSeq = (seq + 1) & 0xff;
    const record: MessageRecord = { client: this.client, seq, text, sends: 0, acked: false, at: Date.now() };
    this.records.messages.push(record);
    const waiting = { record, timer: undefined as NodeJS.Timeout | undefined };
    this.unacked.set(seq, waiting);
    const attempt = () => {
      if (this.ended || record.acked) return;
      if (record.sends >= this.options.messageSends) return this.dropClient();
      record.sends++;
      this.hooks.send({ type: 'message', seq, text: Buffer.from(text, 'utf8') });
      waiting.timer = setTimeout(attempt, this.options.messageResendMs);
      this.hooks.changed();
    };
    attempt();
  }

  end(): void {
    this.ended = true;
    clearTimeout(this.idleTimer);
    for (const { timer } of this.unacked.values()) clearTimeout(timer);
    this.unacked.clear();
    for (const timer of this.partTimers) clearTimeout(timer);
    this.partTimers.clear();
  }

  private sendReply(packets: ServerPacket[]): void {
    packets.forEach((p, i) => {
      if (this.options.partDelayMs === 0 || i === 0) return this.hooks.send(p);
      const timer = setTimeout(() => {
        this.partTimers.delete(timer);
        if (!this.ended) this.hooks.send(p);
      }, i * this.options.partDelayMs);
      this.partTimers.add(timer);
    });
  }

  private dropClient(): void {
    this.end();
    this.hooks.drop();
    this.hooks.changed();
  }

  private checkIdle(): void {
    const idleMs = Date.now() - this.lastCommandAt;
    if (idleMs >= this.options.clientTimeoutMs) return this.dropClient();
    this.idleTimer = setTimeout(() => this.checkIdle(), this.options.clientTimeoutMs - idleMs);
  }

  /** The reply as one packet, or in parts of at most splitBytes bytes (cut anywhere, mid-character too). */
  private split(seq: number, reply: Buffer): ServerPacket[] {
    if (reply.length <= this.options.splitBytes) return [{ type: 'reply', seq, text: reply }];
    const size = Math.max(this.options.splitBytes, Math.ceil(reply.length / 255));
    const count = Math.ceil(reply.length / size);
    const packets: ServerPacket[] = Array.from({ length: count }, (_, index) => ({
      type: 'reply-part',
      seq,
      count,
      index,
      part: reply.subarray(index * size, (index + 1) * size),
    }));
    if (this.options.partOrder === 'reverse') packets.reverse();
    if (this.options.partOrder === 'shuffle') {
      for (let i = packets.length - 1; i > 0; i--) {
        const j = Math.floor(Math.random() * (i + 1));
        [packets[i], packets[j]] = [packets[j]!, packets[i]!];
      }
    }
    return packets;
  }
}
