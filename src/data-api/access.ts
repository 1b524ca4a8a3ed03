// What every Data API request passes: the operator switch, then before its route the API key and
// the key's per-minute rate; and the checks routes share (server ownership, tier page caps).
import type { Core } from '../core.ts';
import type { Middleware } from 'koa';
import type { AppContext, AppState } from '../http/context.ts';
import { ApiError, notFound } from '../http/errors.ts';
import { bearerToken } from '../http/credentials.ts';
import { rateLimitHeaders } from '../http/rate-limit.ts';
import { takeLeasedToken } from '../http/rate-leases.ts';
import { isUuid } from '../http/uuid.ts';
import { resolveApiKey } from '../accounts/api-key.ts';
import type { ApiKeyIdentity } from '../accounts/api-key.ts';
import type { ApiKeyTier } from '../accounts/api-key.repo.ts';
import { liveServerOwner } from '../servers/server.ts';
import type { ServerOwnerDeps } from '../servers/server.ts';
import type { LeaseDeps } from '../http/rate-leases.ts';
import type { DataApiRuntime } from '../operator/data-api-switch.ts';
import type { ApiKeyDeps } from '../accounts/api-key.ts';

export const pageCaps: Record<ApiKeyTier, number> = { standard: 100, partner: 500 };
/** Seconds a client waits after a Data API 429, as the spec fixes it. */
const retryAfterSeconds = 60;

declare module '../http/request-state.ts' {
  interface RequestCaller {
    /** The Data API key a request authenticated with. */
    apiKey?: ApiKeyIdentity;
  }
}

/** The operator switch: while it is off, every path under /api/v1/data answers 503. */
export function dataApiSwitch(deps: Core & DataApiRuntime): Middleware<AppState> {
  return (ctx, next) => {
    if (!deps.runtime.dataApiEnabled && /^\/api\/v1\/data(\/|$)/.test(ctx.path)) {
      throw new ApiError('DATA_API_DISABLED', 'the Data API is disabled on this instance');
    }
    return next();
  };
}

export function dataApiAccess(deps: ApiKeyDeps & LeaseDeps): Middleware<AppState> {
  const rates: Record<ApiKeyTier, number> = { standard: deps.config.rates.dataStandard, partner: deps.config.rates.dataPartner };
  return async (ctx, next) => {
    const raw = ctx.get('x-service-api-key') || bearerToken(ctx.get('authorization'));
    if (!raw) throw new ApiError('UNAUTHORIZED', 'an API key is required (Authorization: Bearer or X-Service-Api-Key)');
    const key = await resolveApiKey(deps, raw);
    if (!key) throw new ApiError('UNAUTHORIZED', 'unknown or revoked API key');
    const decision = await takeLeasedToken(deps, 'data', key.id, rates[key.tier]);
    ctx.set(rateLimitHeaders(decision));
    if (!decision.allowed) {
      throw new ApiError(
        'RATE_LIMITED',
        'per-minute request rate exceeded',
        { retryAfter: retryAfterSeconds },
        { 'Retry-After': String(retryAfterSeconds) },
      );
    }
    ctx.state.apiKey = key;
    await next();
  };
}

export const keyOf = (ctx: AppContext): ApiKeyIdentity => ctx.state.apiKey!;

/** Clamps a requested page size to the key tier's cap. */
export const clampLimit = (ctx: AppContext, limit: number) => Math.min(limit, pageCaps[keyOf(ctx).tier]);

/** The server id of the path, if the key's account owns that live server; otherwise a 404. */
export async function ownedServerId(deps: ServerOwnerDeps, ctx: AppContext, serverId: string): Promise<string> {
  if (!isUuid(serverId) || (await liveServerOwner(deps, serverId)) !== keyOf(ctx).accountId) throw notFound('server');
  return serverId;
}
