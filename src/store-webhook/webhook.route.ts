// POST /api/store/webhook (docs/api.md): a payment store's signed notification. The signature is
// checked over the raw bytes before anything is parsed; the header tells the format (Tebex's
// X-Signature, or the service's own X-Store-Signature). 200 on success or a repeat, 401 on a bad
// or missing signature, 400 on a body it cannot read. CSRF-exempt: no session is involved.
import Router from '@koa/router';
import type { ServerReadDeps } from '../stats/server-reads.ts';
import type { TrustDeps } from '../trust/lookup.ts';
import getRawBody from 'raw-body';
import type { Core } from '../core.ts';
import type { AppContext, AppState } from '../http/context.ts';
import { ApiError, badRequest } from '../http/errors.ts';
import { proxyTrust } from '../http/client.ts';
import { checkOwnSignature, checkTebexSignature } from './signatures.ts';
import type { SignatureCheck } from './signatures.ts';
import { storeEventOf } from './events.ts';
import type { StoreSource } from './events.ts';
import { applyStoreEvent } from './grants.ts';
import type { StoreWebhookResult } from '../http/schema-types.ts';

export const storeWebhookBodyLimitBytes = 256 * 1024;

async function rawBodyOf(ctx: AppContext): Promise<Buffer> {
  const encoding = ctx.get('content-encoding').toLowerCase();
  if (encoding && encoding !== 'identity') throw new ApiError('UNSUPPORTED_MEDIA_TYPE', 'send the body uncompressed: it is signed as sent');
  try {
    return await getRawBody(ctx.req, { limit: storeWebhookBodyLimitBytes, length: ctx.get('content-length') || undefined });
  } catch (err) {
    const type = (err as { type?: string }).type;
    if (type === 'entity.too.large') throw new ApiError('PAYLOAD_TOO_LARGE', `the body is over ${storeWebhookBodyLimitBytes} bytes`);
    throw badRequest('the body could not be read as sent (its length does not match Content-Length)');
  }
}

/** Which format signed the call, and whether its signature verifies; 401 when it does not. */
function verifiedSource(deps: Core, ctx: AppContext, body: Buffer): StoreSource {
  const own = ctx.get('x-store-signature');
  const tebex = ctx.get('x-signature');
  const { ownSecret, tebexSecret } = deps.config.store;
  let source: StoreSource;
  let check: SignatureCheck;
  if (own) {
    source = 'own';
    check = ownSecret
      ? checkOwnSignature(ownSecret, own, body, deps.clock.now())
      : { ok: false, reason: 'no STORE_WEBHOOK_SECRET is configured on this service' };
  } else if (tebex) {
    source = 'tebex';
    check = tebexSecret
      ? checkTebexSignature(tebexSecret, tebex, body)
      : { ok: false, reason: 'no TEBEX_WEBHOOK_SECRET is configured on this service' };
  } else {
    throw new ApiError('UNAUTHORIZED', 'a signed store call is needed: X-Signature (Tebex) or X-Store-Signature');
  }
  if (!check.ok) {
    deps.log.warn({ reqId: ctx.state.requestId, source, ip: ctx.state.clientIp, reason: check.reason }, 'store webhook refused');
    throw new ApiError('UNAUTHORIZED', `store call refused: ${check.reason}`);
  }
  return source;
}

function parsedJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    throw badRequest('the body is not JSON');
  }
}

export function storeWebhookRouter(deps: TrustDeps & ServerReadDeps): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api/store', sensitive: true });
  const tebexSource = proxyTrust(deps.config.store.tebexSources);
  router.post('/webhook', async (ctx) => {
    const body = await rawBodyOf(ctx);
    const source = verifiedSource(deps, ctx, body);
    if (source === 'tebex' && deps.config.store.tebexSources.length > 0 && !tebexSource(ctx.state.clientIp)) {
      throw new ApiError('FORBIDDEN', 'this address is not one of TEBEX_SOURCE_ADDRESSES');
    }
    const event = storeEventOf(source, parsedJson(body), deps.config.store.products);
    // Tebex activates an endpoint once it answers its validation event with the event's id.
    if (event.kind === 'validation') {
      ctx.body = { id: event.id } satisfies StoreWebhookResult;
      return;
    }
    ctx.body = (await applyStoreEvent(deps, event)) satisfies StoreWebhookResult;
  });
  return router;
}
