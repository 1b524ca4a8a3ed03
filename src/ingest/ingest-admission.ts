// Admits a call a game server's agent makes with its ingest token (events, file pulls, commands,
// the active bans): the token checked in constant time, then the server token's ingest rate. Only
// calls with a valid token skip the per-IP controller limits, so guesses are counted there.
import type { Core } from '../core.ts';
import type { AppContext } from '../http/context.ts';
import { ApiError } from '../http/errors.ts';
import { rateLimitHeaders, retryAfterSeconds, takeRateToken } from '../http/rate-limit.ts';
import { chargeControllerLimits } from '../http/controller-limits.ts';
import { bearerToken } from '../http/credentials.ts';
import { liveServerOwner } from '../servers/server.ts';
import { verifyIngestToken } from './ingest-token.ts';
import type { ServerOwnerDeps } from '../servers/server.ts';
import type { IngestTokenDeps } from './ingest-token.ts';

const refused = () => new ApiError('UNAUTHORIZED', 'missing or invalid ingest token');

export async function admitIngestToken(deps: Core & IngestTokenDeps, ctx: AppContext, serverId: string): Promise<void> {
  if (!(await verifyIngestToken(deps, serverId, bearerToken(ctx.get('authorization'))))) {
    if (deps.config.controllerRateLimit) await chargeControllerLimits(deps, ctx);
    throw refused();
  }
  const decision = await takeRateToken(deps, 'ingest', serverId, deps.config.rates.ingest);
  ctx.set(rateLimitHeaders(decision));
  if (!decision.allowed) {
    const retryAfter = retryAfterSeconds(decision);
    throw new ApiError('RATE_LIMITED', 'ingest rate exceeded', { retryAfter }, { 'Retry-After': String(retryAfter) });
  }
}

/** Admits the call and answers the account owning the (live) server. */
export async function admitServerAgent(deps: ServerOwnerDeps & IngestTokenDeps, ctx: AppContext, serverId: string): Promise<string> {
  await admitIngestToken(deps, ctx, serverId);
  const accountId = await liveServerOwner(deps, serverId);
  if (!accountId) throw refused();
  return accountId;
}
