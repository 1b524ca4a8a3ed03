// OpenAPI description of the document's own route.
import type { Operation } from '../http/openapi-operation.ts';

export const openApiOperations: Operation[] = [
  {
    method: 'get',
    path: '/api/v1/openapi.json',
    tag: 'Operations',
    summary: 'This OpenAPI 3.1 document (no key needed)',
    responses: { 200: ['the OpenAPI document'] },
  },
];
