// Reads an answer of the service at most so far: a huge or endless body never sits in the agent's
// memory (it runs beside the game, on the game's host).

/**
 * At most `limit` bytes of a body, read chunk by chunk; `over` when it had more, and then the rest
 * is not read (the stream is cancelled, which closes the connection).
 */
export async function readUpTo(res: Response, limit: number): Promise<{ bytes: Buffer; over: boolean }> {
  if (!res.body) return { bytes: Buffer.alloc(0), over: false };
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { bytes: Buffer.concat(chunks, size), over: false };
    chunks.push(value);
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      return { bytes: Buffer.concat(chunks, limit), over: true };
    }
  }
}
