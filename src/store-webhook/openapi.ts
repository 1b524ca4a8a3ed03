// OpenAPI description of the store webhook.
import type { Operation } from '../http/openapi-operation.ts';

const e = (description: string) => [description, 'error.json'] as const;

export const storeWebhookOperations: Operation[] = [
  {
    method: 'post',
    path: '/api/store/webhook',
    tag: 'Store webhook',
    security: 'storeSignature',
    body: 'store-event.json',
    summary:
      'A payment store grants, extends or takes back priority-queue entries (STORE_PRODUCTS); each event id is processed once; CSRF-exempt',
    responses: {
      200: [
        'processed, a repeat of an event id, or ignored; a Tebex validation.webhook is answered with its id',
        'store-webhook-result.json',
      ],
      400: e('a body that is not JSON or not an event of the format its signature names, or a product line naming no player'),
      401: e('no signature header, a signature that does not verify, a stale or future timestamp (own format), or no secret configured'),
      403: e('a Tebex call from an address outside TEBEX_SOURCE_ADDRESSES'),
      413: e('body over 256 KiB'),
      415: e('a compressed body'),
      422: e('STORE_PRODUCTS names a server or account that does not exist (nothing is recorded: the store may retry once it is fixed)'),
      429: e('rate limit (Retry-After)'),
    },
  },
];
