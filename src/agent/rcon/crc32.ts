// CRC-32 (IEEE 802.3, the one zlib computes) of a byte range, table-driven. Not node:zlib's crc32:
// that exists only from Node 20.15/22.2, and Deno 2's node:zlib did not export it for long, so a
// missing named export would stop the agent from loading at all. 256 numbers, computed once.
const table = new Uint32Array(256);
for (let n = 0; n < 256; n++) {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  table[n] = c >>> 0;
}

/** CRC-32 of `bytes` from `start` to the end, as an unsigned 32-bit number. */
export function crc32(bytes: Uint8Array, start = 0): number {
  let crc = 0xffffffff;
  for (let i = start; i < bytes.length; i++) crc = table[(crc ^ bytes[i]!) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
