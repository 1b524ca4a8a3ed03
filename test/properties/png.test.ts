// The screenshots' PNG decoder: any 8-bit RGB or RGBA image, each row under any of the five
// filters, decodes to its pixels; a PNG of another kind is refused, never misread.
import { deflateSync } from 'node:zlib';
import test from 'ava';
import fc from 'fast-check';
import { decodePng } from '../helpers/png.ts';

/** The PNG specification's predictor, written here again so a mistake in the decoder's cannot cancel out. */
function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const [pa, pb, pc] = [Math.abs(p - a), Math.abs(p - b), Math.abs(p - c)];
  if (pa <= pb && pa <= pc) return a;
  return pb <= pc ? b : c;
}

function chunk(type: string, body: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(body.length);
  return Buffer.concat([length, Buffer.from(type, 'latin1'), body, Buffer.alloc(4)]);
}

/** Encodes as a PNG encoder would: each row filtered as given, then deflated. */
function encodePng(
  width: number,
  height: number,
  channels: 3 | 4,
  data: Buffer,
  filters: number[],
  header: Partial<{ bitDepth: number; interlace: number }> = {},
): Buffer {
  const stride = width * channels;
  const raw = Buffer.alloc(height * (stride + 1));
  for (let y = 0; y < height; y++) {
    const filter = filters[y]!;
    raw[y * (stride + 1)] = filter;
    for (let x = 0; x < stride; x++) {
      const at = (dy: number, dx: number) => (y + dy >= 0 && x + dx >= 0 ? data[(y + dy) * stride + x + dx]! : 0);
      const [a, b, c] = [at(0, -channels), at(-1, 0), at(-1, -channels)];
      const predicted = [0, a, b, (a + b) >> 1, paeth(a, b, c)][filter]!;
      raw[y * (stride + 1) + 1 + x] = (data[y * stride + x]! - predicted) & 0xff;
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = header.bitDepth ?? 8;
  ihdr[9] = channels === 4 ? 6 : 2;
  ihdr[12] = header.interlace ?? 0;
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

const image = fc
  .record({
    width: fc.integer({ min: 1, max: 12 }),
    height: fc.integer({ min: 1, max: 12 }),
    channels: fc.constantFrom(3 as const, 4 as const),
  })
  .chain(({ width, height, channels }) =>
    fc.record({
      width: fc.constant(width),
      height: fc.constant(height),
      channels: fc.constant(channels),
      data: fc.uint8Array({ minLength: width * height * channels, maxLength: width * height * channels }),
      filters: fc.array(fc.integer({ min: 0, max: 4 }), { minLength: height, maxLength: height }),
    }),
  );

test('any 8-bit RGB or RGBA image under any row filters decodes to its pixels', (t) => {
  fc.assert(
    fc.property(image, ({ width, height, channels, data, filters }) => {
      const decoded = decodePng(encodePng(width, height, channels, Buffer.from(data), filters));
      return (
        decoded.width === width && decoded.height === height && decoded.channels === channels && decoded.data.equals(Buffer.from(data))
      );
    }),
    { numRuns: 300 },
  );
  t.pass();
});

test('a PNG of another kind is refused', (t) => {
  const pixels = Buffer.alloc(2 * 2 * 3, 7);
  t.throws(() => decodePng(encodePng(2, 2, 3, pixels, [0, 0], { bitDepth: 16 })), { message: /unsupported PNG: bit depth 16/ });
  t.throws(() => decodePng(encodePng(2, 2, 3, pixels, [0, 0], { interlace: 1 })), { message: /interlace 1/ });
  t.throws(() => decodePng(encodePng(2, 2, 3, pixels, [5, 0])), { message: /unknown PNG filter 5/ });
  t.throws(() => decodePng(Buffer.from('GIF89a')), { message: /not a PNG/ });
});
