// What the fake BattlEye server records, how tests wait on it, and its loss injection: datagrams
// lost on purpose, the next N or the first N matching a predicate, in either direction.
import type { EventEmitter } from 'node:events';
import type { ClientPacket, ServerPacket } from '../../src/agent/rcon/packet.ts';

export type Direction = 'to-server' | 'to-client';

export interface CommandRecord {
  /** The client's address:port. */
  client: string;
  seq: number;
  text: string;
  at: number;
}

export interface MessageRecord {
  client: string;
  seq: number;
  text: string;
  /** Times sent so far. */
  sends: number;
  acked: boolean;
  at: number;
}

export interface FakeRecords {
  logins: { client: string; ok: boolean; at: number }[];
  /** Commands run: once per (session, sequence number), however often the client resent it. */
  commands: CommandRecord[];
  /** Resent commands, answered again from the reply kept. */
  repeats: CommandRecord[];
  keepAlives: { client: string; seq: number; at: number }[];
  acks: { client: string; seq: number; at: number }[];
  messages: MessageRecord[];
  /** Datagrams lost on purpose. */
  drops: { direction: Direction; packet: ClientPacket | ServerPacket; at: number }[];
  /** Datagrams that were not well-formed client packets. */
  malformed: number;
}

/** Resolves with `probe()`'s first truthy value, checked now and on every 'change'; rejects after `timeoutMs`. */
export function waitFor<T>(changes: EventEmitter, probe: () => T | undefined | false | null, timeoutMs: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const check = () => {
      const value = probe();
      if (value === undefined || value === false || value === null) return;
      done();
      resolve(value);
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`fake BattlEye: timed out after ${timeoutMs} ms waiting for ${what}`));
    }, timeoutMs);
    const done = () => {
      clearTimeout(timer);
      changes.off('change', check);
    };
    changes.on('change', check);
    check();
  });
}

interface DropRule {
  direction: Direction;
  match: (packet: ClientPacket | ServerPacket) => boolean;
  times: number;
}

/** The loss rules; `dropped` says whether a datagram is lost, and records it. */
export class Losses {
  private readonly rules: DropRule[] = [];

  constructor(private readonly records: FakeRecords) {}

  add(direction: Direction, match: (packet: ClientPacket | ServerPacket) => boolean, times: number): void {
    this.rules.push({ direction, match, times });
  }

  dropped(direction: Direction, packet: ClientPacket | ServerPacket): boolean {
    const rule = this.rules.find((r) => r.direction === direction && r.times > 0 && r.match(packet));
    if (!rule) return false;
    rule.times--;
    this.records.drops.push({ direction, packet, at: Date.now() });
    return true;
  }
}
