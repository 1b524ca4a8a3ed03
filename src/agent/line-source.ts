// Complete lines of a file from a byte offset, a chunk at a time: a line still being written (no
// line end yet) is left for the next read. Memory stays at one chunk whatever the file size: a
// "line" longer than maxLineBytes (no admin-log line is) is passed on empty, marked overlong.
import { open } from 'node:fs/promises';

export interface Line {
  text: string;
  /** Byte offset of the line's first byte. */
  offset: number;
  /** Byte offset just past its line end. */
  end: number;
  /** Longer than maxLineBytes: its text is not kept. */
  overlong?: true;
}

const chunkBytes = 256 * 1024;
export const maxLineBytes = 64 * 1024;

/** Yields arrays of complete lines from `from` to the last line end present now. */
export async function* completeLines(path: string, from: number): AsyncGenerator<Line[]> {
  const file = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(chunkBytes);
    /** Where the line being assembled starts. */
    let lineStart = from;
    /** Where the next read starts (past what `carry` holds, or past a skipped overlong part). */
    let readAt = from;
    let carry = Buffer.alloc(0);
    let skipping = false;
    for (;;) {
      const { bytesRead } = await file.read(buffer, 0, chunkBytes, readAt);
      if (bytesRead === 0) return;
      const chunk = buffer.subarray(0, bytesRead);
      const lines: Line[] = [];
      let start = 0;
      if (skipping) {
        const nl = chunk.indexOf(10);
        if (nl === -1) {
          readAt += bytesRead;
          continue;
        }
        lines.push({ text: '', offset: lineStart, end: readAt + nl + 1, overlong: true });
        skipping = false;
        start = nl + 1;
        lineStart = readAt + start;
      }
      const data = carry.length > 0 ? Buffer.concat([carry, chunk.subarray(start)]) : chunk.subarray(start);
      const base = lineStart;
      let at = 0;
      for (let nl = data.indexOf(10, at); nl !== -1; nl = data.indexOf(10, at)) {
        if (nl - at > maxLineBytes) lines.push({ text: '', offset: base + at, end: base + nl + 1, overlong: true });
        else lines.push({ text: data.toString('utf8', at, nl), offset: base + at, end: base + nl + 1 });
        at = nl + 1;
      }
      lineStart = base + at;
      readAt += bytesRead;
      if (data.length - at > maxLineBytes) {
        // No line end within reach: the rest of this line is skipped, not kept.
        skipping = true;
        carry = Buffer.alloc(0);
      } else {
        // A partial line is kept (copied: the buffer is reused) and completed by the next chunk.
        carry = Buffer.from(data.subarray(at));
      }
      if (lines.length > 0) yield lines;
    }
  } finally {
    await file.close();
  }
}
