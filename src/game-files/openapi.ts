// OpenAPI description of the game-file pull routes (ingest token).
import type { Operation } from '../http/openapi-operation.ts';

const e = (description: string) => [description, 'error.json'] as const;
const pull = (file: string, what: string): Operation => ({
  method: 'get',
  path: `/api/servers/{serverId}/files/${file}`,
  tag: 'Game files',
  security: 'ingestToken',
  summary: `The server's ${what} as the service renders it (text/plain), for an agent on another host to write beside the game`,
  pathParams: { serverId: 'server id (UUID)' },
  responses: {
    200: [`the file's bytes (text/plain; charset=utf-8)`],
    401: e('missing or invalid ingest token'),
    429: e('ingest rate exceeded (Retry-After)'),
  },
});

export const gameFileOperations: Operation[] = [
  pull('bans', 'ban.txt (each ban in force as its Steam64 line then its DayZ ID line, CRLF)'),
  pull('priority', 'priority.txt (`id;` per queued player)'),
];
