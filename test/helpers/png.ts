// Decodes the PNGs Chromium's screenshots are (8-bit RGB or RGBA, not interlaced) into their
// pixels, in the test process: handing each screenshot back to a browser page to decode cost more
// than taking it. Any other kind of PNG is refused, never misread.
import { inflateSync } from 'node:zlib';

export interface Pixels {
  width: number;
  height: number;
  /** 3 (RGB) or 4 (RGBA) bytes a pixel, rows top to bottom. */
  channels: 3 | 4;
  data: Buffer;
}

const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export function decodePng(png: Buffer): Pixels {
  if (!png.subarray(0, 8).equals(signature)) throw new Error('not a PNG');
  let header: { width: number; height: number; bitDepth: number; colourType: number; interlace: number } | undefined;
  const compressed: Buffer[] = [];
  for (let at = 8; at + 8 <= png.length;) {
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    const body = png.subarray(at + 8, at + 8 + length);
    at += 12 + length;
    if (type === 'IHDR')
      header = {
        width: body.readUInt32BE(0),
        height: body.readUInt32BE(4),
        bitDepth: body[8]!,
        colourType: body[9]!,
        interlace: body[12]!,
      };
    else if (type === 'IDAT') compressed.push(body);
    else if (type === 'IEND') break;
  }
  if (!header) throw new Error('a PNG without IHDR');
  const { width, height, bitDepth, colourType, interlace } = header;
  if (bitDepth !== 8 || (colourType !== 2 && colourType !== 6) || interlace !== 0)
    throw new Error(`unsupported PNG: bit depth ${bitDepth}, colour type ${colourType}, interlace ${interlace}`);
  const channels = colourType === 6 ? 4 : 3;
  return { width, height, channels, data: unfilter(inflateSync(Buffer.concat(compressed)), width * channels, height, channels) };
}

/** Undoes each row's filter (its first byte): None, Sub, Up, Average, Paeth. */
function unfilter(raw: Buffer, stride: number, height: number, bpp: number): Buffer {
  if (raw.length !== height * (stride + 1)) throw new Error('PNG image data of the wrong length');
  const out = Buffer.alloc(height * stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    const row = y * stride;
    for (let x = 0; x < stride; x++) {
      const value = raw[y * (stride + 1) + 1 + x]!;
      const a = x >= bpp ? out[row + x - bpp]! : 0;
      const b = y > 0 ? out[row - stride + x]! : 0;
      const c = x >= bpp && y > 0 ? out[row - stride + x - bpp]! : 0;
      let predicted: number;
      if (filter === 0) predicted = 0;
      else if (filter === 1) predicted = a;
      else if (filter === 2) predicted = b;
      else if (filter === 3) predicted = (a + b) >> 1;
      else if (filter === 4) predicted = paeth(a, b, c);
      else throw new Error(`unknown PNG filter ${filter}`);
      out[row + x] = (value + predicted) & 0xff;
    }
  }
  return out;
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}
