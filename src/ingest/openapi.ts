// OpenAPI description of the ingestion route.
import type { Operation } from '../http/openapi-operation.ts';

export const ingestOperations: Operation[] = [
  {
    method: 'post',
    path: '/api/servers/{serverId}/events',
    tag: 'Ingestion',
    security: 'ingestToken',
    summary: 'A game server pushes up to 1000 events; idempotent by event (its id and ts), bad events rejected one by one',
    pathParams: { serverId: 'server id (UUID)' },
    body: 'ingest-batch.json',
    responses: {
      200: ['counts of accepted, duplicate and rejected events', 'ingest-result.json'],
      400: ['the batch is malformed', 'error.json'],
      401: ['missing or invalid ingest token', 'error.json'],
      413: ['body larger than INGEST_BODY_LIMIT_BYTES', 'error.json'],
      415: ['not application/json', 'error.json'],
      429: ['ingest rate exceeded', 'error.json'],
      503: ['a data store is unavailable; retry the batch', 'error.json'],
    },
  },
];
