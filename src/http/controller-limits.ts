// Per-IP rate limits of the controller paths (docs/api.md, Rate limits): a default on every /api path except
// the Data API (/api/v1/*, which limits per key), map tiles, and the calls game servers make with
// their ingest token; plus tighter caps on the sign-in/setup and chat-bot paths.
import type { Middleware } from 'koa';
import type { Core } from '../core.ts';
import type { AppContext, AppState } from './context.ts';
import { ApiError } from './errors.ts';
import { rateLimitIdentity } from './client.ts';
import { rateLimitHeaders, retryAfterSeconds, takeRateToken } from './rate-limit.ts';
import type { RateDecision } from './rate-limit.ts';

// What an agent calls with its ingest token: events, file pulls, its commands and the active bans.
const ingestTokenPath = /^\/api\/servers\/[^/]+\/(events|files\/[^/]+|commands\/next|commands\/[^/]+\/result|bans\/active)$/;

export function controllerPath(path: string): boolean {
  return path.startsWith('/api/') && !path.startsWith('/api/v1/') && !path.startsWith('/api/maps/tiles/') && !ingestTokenPath.test(path);
}

function scopedLimit(deps: Core, path: string, method: string): [string, number] | undefined {
  // The routers answer a path with a trailing slash too (/api/auth/login/): so must the caps.
  const route = path.replace(/\/+$/, '');
  // The sign-in budget guards passwords and the first owner's creation; reading whether setup is
  // done (the dashboard asks at every page load) is not an attempt, and spent it for an admin who
  // reloaded 17 times in a minute.
  if (route === '/api/auth/login' || (path.startsWith('/api/setup/') && method !== 'GET' && method !== 'HEAD'))
    return ['auth', deps.config.rates.auth];
  if (route === '/api/chat/action') return ['chat', deps.config.rates.chat];
  return undefined;
}

/**
 * Counts a request against the per-IP controller limits; 429 when one is exhausted. The tighter,
 * scoped cap is asked first: a request it refuses does not use up the default limit too.
 */
export async function chargeControllerLimits(deps: Core, ctx: AppContext): Promise<void> {
  const who = rateLimitIdentity(ctx.state.clientIp);
  const scoped = scopedLimit(deps, ctx.path, ctx.method);
  const decisions: RateDecision[] = [];
  if (scoped) decisions.push(await takeRateToken(deps, scoped[0], who, scoped[1]));
  if (decisions.every((d) => d.allowed)) decisions.push(await takeRateToken(deps, 'ctl', who, deps.config.rates.controller));
  const refused = decisions.find((d) => !d.allowed);
  const shown = refused ?? decisions.reduce((a, b) => (b.remaining < a.remaining ? b : a));
  ctx.set(rateLimitHeaders(shown));
  if (refused) {
    const retryAfter = retryAfterSeconds(refused);
    throw new ApiError('RATE_LIMITED', 'too many requests from this address', { retryAfter }, { 'Retry-After': String(retryAfter) });
  }
}

export function controllerLimits(deps: Core): Middleware<AppState> {
  const charged = async (ctx: AppContext, next: () => Promise<unknown>) => {
    await chargeControllerLimits(deps, ctx);
    await next();
  };
  // Not async itself: the requests that pass untouched (the Data API, ingestion) pay no extra promise.
  return (ctx, next) => (deps.config.controllerRateLimit && controllerPath(ctx.path) ? charged(ctx, next) : next());
}
