// OpenAPI description of the limits route (any session).
import type { Operation } from '../http/openapi-operation.ts';

const e = (description: string) => [description, 'error.json'] as const;

export const limitsOperations: Operation[] = [
  {
    tag: 'Limits',
    security: 'session',
    method: 'get',
    path: '/api/limits',
    summary: 'The tiers of Data API keys and partner keys and the per-minute rate limits, as this instance is configured (any session)',
    responses: { 200: ['tiers and limits', 'limits.json'], 401: e('no session (UNAUTHORIZED)'), 429: e('rate limit (Retry-After)') },
  },
];
