// OpenAPI description of the metrics route.
import type { Operation } from '../http/openapi-operation.ts';

export const metricsOperations: Operation[] = [
  {
    method: 'get',
    path: '/metrics',
    tag: 'Operations',
    summary: 'Prometheus metrics of every web process combined, to Authorization: Bearer <METRICS_TOKEN> (docs/operations.md)',
    responses: {
      200: ['Prometheus text format 0.0.4'],
      401: ['no bearer, or not METRICS_TOKEN', 'error.json'],
      404: ['metrics are off: no METRICS_TOKEN is configured', 'error.json'],
    },
  },
];
