// Event ids of the agent: UUID v5 (RFC 9562) in the server id's namespace, named by the log file
// and the line's byte offset, so a line read again always carries the same id.
import { createHash } from 'node:crypto';

export function uuidV5(namespace: string, name: string): string {
  const bytes = createHash('sha1')
    .update(Buffer.from(namespace.replaceAll('-', ''), 'hex'))
    .update(name, 'utf8')
    .digest();
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export const eventId = (serverId: string, fileName: string, offset: number) => uuidV5(serverId, `${fileName}:${offset}`);
