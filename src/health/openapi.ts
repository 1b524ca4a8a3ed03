// OpenAPI description of the health check.
import type { Operation } from '../http/openapi-operation.ts';

export const healthOperations: Operation[] = [
  {
    method: 'get',
    path: '/api/health',
    tag: 'Operations',
    summary: 'PostgreSQL and Redis reachability',
    responses: { 200: ['both stores answer', 'health.json'], 503: ['a store does not answer', 'health.json'] },
  },
];
