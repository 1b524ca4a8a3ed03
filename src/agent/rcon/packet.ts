// BattlEye RCon datagrams (BERConProtocol.txt, v2): 'B' 'E', the CRC-32 of everything from the 0xFF
// on (4 bytes, little-endian), 0xFF, then the payload, whose first byte is its type. Pure: bytes in,
// bytes out. Texts stay bytes here (UTF-8, never measured by string length): a reply in several
// parts may split a character, so only the joined bytes are decoded, by the caller.
import { Buffer } from 'node:buffer';
import { crc32 } from './crc32.ts';

/** 'B' 'E', 4 bytes of CRC, 0xFF. */
export const headerBytes = 7;

const typeLogin = 0x00;
const typeCommand = 0x01;
const typeMessage = 0x02;

/** What a client sends: a login, a command (empty: the keep-alive), the ack of a server message. */
export type ClientPacket =
  { type: 'login'; password: Buffer } | { type: 'command'; seq: number; text: Buffer } | { type: 'ack'; seq: number };

/** What a server sends: the login verdict, a reply (whole or one part), a server message. */
export type ServerPacket =
  | { type: 'login-reply'; ok: boolean }
  | { type: 'reply'; seq: number; text: Buffer }
  | { type: 'reply-part'; seq: number; count: number; index: number; part: Buffer }
  | { type: 'message'; seq: number; text: Buffer };

function frame(payload: Buffer): Buffer {
  const out = Buffer.allocUnsafe(headerBytes - 1 + payload.length);
  out[0] = 0x42;
  out[1] = 0x45;
  payload.copy(out, headerBytes - 1);
  out.writeUInt32LE(crc32(out, headerBytes - 1), 2);
  return out;
}

const bytes = (text: string | Uint8Array): Buffer => (typeof text === 'string' ? Buffer.from(text, 'utf8') : Buffer.from(text));
const checkSeq = (seq: number): number => {
  if (!Number.isInteger(seq) || seq < 0 || seq > 255) throw new RangeError(`sequence number out of range: ${seq}`);
  return seq;
};

export function encodeClientPacket(packet: ClientPacket): Buffer {
  switch (packet.type) {
    case 'login':
      return frame(Buffer.concat([Buffer.of(0xff, typeLogin), packet.password]));
    case 'command':
      return frame(Buffer.concat([Buffer.of(0xff, typeCommand, checkSeq(packet.seq)), packet.text]));
    case 'ack':
      return frame(Buffer.of(0xff, typeMessage, checkSeq(packet.seq)));
  }
}

export function encodeServerPacket(packet: ServerPacket): Buffer {
  switch (packet.type) {
    case 'login-reply':
      return frame(Buffer.of(0xff, typeLogin, packet.ok ? 1 : 0));
    case 'reply':
      return frame(Buffer.concat([Buffer.of(0xff, typeCommand, checkSeq(packet.seq)), packet.text]));
    case 'reply-part': {
      const { count, index } = packet;
      if (!Number.isInteger(count) || count < 1 || count > 255 || !Number.isInteger(index) || index < 0 || index >= count) {
        throw new RangeError(`bad part ${index} of ${count}`);
      }
      return frame(Buffer.concat([Buffer.of(0xff, typeCommand, checkSeq(packet.seq), 0x00, count, index), packet.part]));
    }
    case 'message':
      return frame(Buffer.concat([Buffer.of(0xff, typeMessage, checkSeq(packet.seq)), packet.text]));
  }
}

export const loginPacket = (password: string): Buffer => encodeClientPacket({ type: 'login', password: bytes(password) });
export const commandPacket = (seq: number, text: string | Uint8Array): Buffer =>
  encodeClientPacket({ type: 'command', seq, text: bytes(text) });
export const ackPacket = (seq: number): Buffer => encodeClientPacket({ type: 'ack', seq });

/** The payload (from its type byte on) of a datagram whose header and CRC are right; else undefined. */
function payloadOf(datagram: Uint8Array): Buffer | undefined {
  const buf = Buffer.from(datagram.buffer, datagram.byteOffset, datagram.byteLength);
  if (buf.length < headerBytes + 1 || buf[0] !== 0x42 || buf[1] !== 0x45 || buf[6] !== 0xff) return undefined;
  if (buf.readUInt32LE(2) !== crc32(buf, headerBytes - 1)) return undefined;
  return buf.subarray(headerBytes);
}

/** A datagram as the server reads it; undefined when it is not a well-formed client packet. */
export function decodeClientPacket(datagram: Uint8Array): ClientPacket | undefined {
  const p = payloadOf(datagram);
  if (!p) return undefined;
  if (p[0] === typeLogin) return { type: 'login', password: Buffer.from(p.subarray(1)) };
  if (p.length < 2) return undefined;
  if (p[0] === typeCommand) return { type: 'command', seq: p[1]!, text: Buffer.from(p.subarray(2)) };
  if (p[0] === typeMessage && p.length === 2) return { type: 'ack', seq: p[1]! };
  return undefined;
}

/** A datagram as the client reads it; undefined when it is not a well-formed server packet. */
export function decodeServerPacket(datagram: Uint8Array): ServerPacket | undefined {
  const p = payloadOf(datagram);
  if (!p) return undefined;
  if (p[0] === typeLogin) return p.length === 2 && p[1]! <= 1 ? { type: 'login-reply', ok: p[1] === 1 } : undefined;
  if (p.length < 2) return undefined;
  const seq = p[1]!;
  if (p[0] === typeMessage) return { type: 'message', seq, text: Buffer.from(p.subarray(2)) };
  if (p[0] !== typeCommand) return undefined;
  // A reply's text never starts with a NUL byte, so 0x00 there is the multipart header.
  if (p.length === 2 || p[2] !== 0x00) return { type: 'reply', seq, text: Buffer.from(p.subarray(2)) };
  if (p.length < 5) return undefined;
  const count = p[3]!;
  const index = p[4]!;
  if (count < 1 || index >= count) return undefined;
  return { type: 'reply-part', seq, count, index, part: Buffer.from(p.subarray(5)) };
}
