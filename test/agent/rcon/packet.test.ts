// The BattlEye RCon codec: bytes as BERConProtocol.txt lays them out (checked against hand-built
// datagrams and zlib's CRC-32), round trips for any payload and sequence number, and no input at
// all that makes the decoders throw.
import { isDeepStrictEqual } from 'node:util';
import { crc32 as zlibCrc32 } from 'node:zlib';
import test from 'ava';
import fc from 'fast-check';
import { crc32 } from '../../../src/agent/rcon/crc32.ts';
import {
  ackPacket,
  commandPacket,
  decodeClientPacket,
  decodeServerPacket,
  encodeClientPacket,
  encodeServerPacket,
  loginPacket,
} from '../../../src/agent/rcon/packet.ts';
import type { ClientPacket, ServerPacket } from '../../../src/agent/rcon/packet.ts';

/** A datagram built by hand, the spec's way: 'B' 'E', CRC-32 LE of the rest, 0xFF, payload. */
function byHand(payload: number[] | Buffer): Buffer {
  const rest = Buffer.concat([Buffer.of(0xff), Buffer.from(payload)]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32LE(zlibCrc32(rest));
  return Buffer.concat([Buffer.from('BE', 'latin1'), crc, rest]);
}

test('the CRC-32 is the standard one (check value, and zlib for any bytes)', (t) => {
  t.is(crc32(Buffer.from('123456789')), 0xcbf43926);
  t.is(crc32(Buffer.alloc(0)), 0);
  fc.assert(fc.property(fc.uint8Array({ maxLength: 2000 }), (bytes) => crc32(bytes) === zlibCrc32(bytes)));
});

test('packets are laid out as the spec says', (t) => {
  t.deepEqual(loginPacket('secret'), byHand(Buffer.concat([Buffer.of(0x00), Buffer.from('secret')])));
  t.deepEqual(commandPacket(7, 'players'), byHand(Buffer.concat([Buffer.of(0x01, 7), Buffer.from('players')])));
  t.deepEqual(commandPacket(255, ''), byHand([0x01, 255]), 'the keep-alive: a 2-byte command');
  t.deepEqual(ackPacket(200), byHand([0x02, 200]));
  t.deepEqual(
    commandPacket(1, 'say -1 Привет'),
    byHand(Buffer.concat([Buffer.of(0x01, 1), Buffer.from('say -1 Привет', 'utf8')])),
    'UTF-8, sized by bytes',
  );
  t.deepEqual(decodeServerPacket(byHand([0x00, 0x01])), { type: 'login-reply', ok: true });
  t.deepEqual(decodeServerPacket(byHand([0x00, 0x00])), { type: 'login-reply', ok: false });
  t.deepEqual(decodeServerPacket(byHand([0x01, 9])), { type: 'reply', seq: 9, text: Buffer.alloc(0) });
  t.deepEqual(decodeServerPacket(byHand([0x01, 9, 0x00, 3, 2, 0x41])), {
    type: 'reply-part',
    seq: 9,
    count: 3,
    index: 2,
    part: Buffer.from('A'),
  });
  t.deepEqual(decodeServerPacket(byHand(Buffer.concat([Buffer.of(0x02, 4), Buffer.from('Player #1 Ёж disconnected')]))), {
    type: 'message',
    seq: 4,
    text: Buffer.from('Player #1 Ёж disconnected'),
  });
});

test('bad headers, bad CRCs and impossible payloads are not packets', (t) => {
  const good = byHand([0x01, 9, 0x41]);
  for (const bad of [
    Buffer.alloc(0),
    Buffer.from('BE'),
    good.subarray(0, 7),
    Buffer.concat([Buffer.from('XE'), good.subarray(2)]),
    Buffer.concat([good.subarray(0, 6), Buffer.of(0xfe), good.subarray(7)]),
    byHand([0x00, 0x02]),
    byHand([0x00]),
    byHand([0x01, 9, 0x00, 3]),
    byHand([0x01, 9, 0x00, 0, 0]),
    byHand([0x01, 9, 0x00, 2, 2]),
    byHand([0x03, 1]),
    byHand([0x02]),
  ])
    t.is(decodeServerPacket(bad), undefined, bad.toString('hex'));
  t.is(decodeClientPacket(byHand([0x02, 1, 0])), undefined, 'an ack is exactly two bytes');
  t.throws(() => commandPacket(256, 'x'), { instanceOf: RangeError });
  t.throws(() => encodeServerPacket({ type: 'reply-part', seq: 1, count: 2, index: 2, part: Buffer.alloc(0) }), { instanceOf: RangeError });
});

const seq = fc.integer({ min: 0, max: 255 });
const bytes = fc.uint8Array({ maxLength: 600 }).map((b) => Buffer.from(b));
const clientPacket: fc.Arbitrary<ClientPacket> = fc.oneof(
  bytes.map((password) => ({ type: 'login' as const, password })),
  fc.record({ type: fc.constant('command' as const), seq, text: bytes }),
  fc.record({ type: fc.constant('ack' as const), seq }),
);
const serverPacket: fc.Arbitrary<ServerPacket> = fc.oneof(
  fc.boolean().map((ok) => ({ type: 'login-reply' as const, ok })),
  // A whole reply's text never starts with a NUL byte (that marks the multipart header).
  fc.record({ type: fc.constant('reply' as const), seq, text: bytes.filter((b) => b[0] !== 0) }),
  fc.integer({ min: 1, max: 255 }).chain((count) =>
    fc.record({
      type: fc.constant('reply-part' as const),
      seq,
      count: fc.constant(count),
      index: fc.integer({ min: 0, max: count - 1 }),
      part: bytes,
    }),
  ),
  fc.record({ type: fc.constant('message' as const), seq, text: bytes }),
);

test('every packet decodes to itself, whatever its bytes and sequence number', (t) => {
  // Spread: fast-check's records have no prototype, decoded packets have Object's.
  fc.assert(fc.property(clientPacket, (p) => isDeepStrictEqual(decodeClientPacket(encodeClientPacket(p)), { ...p })));
  fc.assert(fc.property(serverPacket, (p) => isDeepStrictEqual(decodeServerPacket(encodeServerPacket(p)), { ...p })));
  fc.assert(
    fc.property(seq, fc.string({ unit: 'grapheme', maxLength: 200 }), (n, text) => {
      const decoded = decodeClientPacket(commandPacket(n, text));
      return decoded?.type === 'command' && decoded.seq === n && decoded.text.toString('utf8') === text;
    }),
  );
  t.pass();
});

test('one flipped bit anywhere makes a packet unreadable, never another packet', (t) => {
  fc.assert(
    fc.property(serverPacket, fc.nat(), fc.integer({ min: 0, max: 7 }), (p, at, bit) => {
      const datagram = encodeServerPacket(p);
      datagram[at % datagram.length]! ^= 1 << bit;
      return decodeServerPacket(datagram) === undefined;
    }),
  );
  t.pass();
});

test('no datagram whatever makes a decoder throw', (t) => {
  const anyDatagram = fc.oneof(
    fc.uint8Array({ maxLength: 80 }),
    // Well framed, with a random payload: past the CRC check, into the payload parsing.
    fc.uint8Array({ maxLength: 80 }).map((payload) => byHand(Buffer.from(payload))),
  );
  fc.assert(
    fc.property(anyDatagram, (datagram) => {
      decodeServerPacket(datagram);
      decodeClientPacket(datagram);
    }),
    { numRuns: 5000 },
  );
  t.pass();
});
