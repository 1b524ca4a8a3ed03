// OpenAPI description of the health check, liveness and readiness.
import type { Operation } from '../http/openapi-operation.ts';

export const healthOperations: Operation[] = [
  {
    method: 'get',
    path: '/api/health',
    tag: 'Operations',
    summary: 'PostgreSQL and Redis reachability',
    responses: { 200: ['both stores answer', 'health.json'], 503: ['a store does not answer', 'health.json'] },
  },
  {
    method: 'get',
    path: '/api/health/live',
    tag: 'Operations',
    summary: 'Liveness: the process runs and answers (no store is checked); restart it when this fails',
    responses: { 200: ['the process answers', 'health-live.json'] },
  },
  {
    method: 'get',
    path: '/api/health/ready',
    tag: 'Operations',
    summary:
      'Readiness: send this process requests only while it answers 200 (the primary PostgreSQL and Redis answer, every migration has run, not draining for shutdown); the read replica is reported but never makes it unready',
    responses: {
      200: ['ready', 'health-ready.json'],
      503: ['not ready: a store is down, migrations are pending, or the process is draining', 'health-ready.json'],
    },
  },
];
