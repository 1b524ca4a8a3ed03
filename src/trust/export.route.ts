// GET /api/v1/trust/export: the partner feed. A partner key (Authorization: Bearer or
// x-service-partner-key) is required; pages per minute are limited by the key's tier.
import type Router from '@koa/router';
import type { Core } from '../core.ts';
import type { AppState } from '../http/context.ts';
import { ApiError } from '../http/errors.ts';
import { bearerToken } from '../http/credentials.ts';
import { queryParser } from '../http/schemas.ts';
import { rateLimitHeaders, takeRateToken } from '../http/rate-limit.ts';
import { secretHash } from '../accounts/secrets.ts';
import { activePartnerKeyByHash } from './partner-key.repo.ts';
import type { PartnerKey } from './partner-key.repo.ts';
import { exportPage } from './export.ts';
import { partnerKeyPrefix } from './partner-keys.route.ts';
import { retryAfterSeconds } from './lookup.route.ts';
import type { TrustExportPage } from '../http/schema-types.ts';

const exportQuery = queryParser('query-trust-export.json');

async function partnerOf(deps: Core, authorization: string, header: string): Promise<PartnerKey> {
  const raw = bearerToken(authorization) || header.trim();
  const key = raw.startsWith(partnerKeyPrefix) && raw.length <= 200 ? await activePartnerKeyByHash(deps.db, secretHash(raw)) : undefined;
  if (!key) throw new ApiError('UNAUTHORIZED', 'a valid partner key is required (Authorization: Bearer svcp_... or x-service-partner-key)');
  return key;
}

/** Adds the export route to the /api/v1/trust router (before the lookup, whose parameter would take "export"). */
export function addExportRoute(deps: Core, router: Router<AppState>): void {
  const rates = { basic: deps.config.rates.exportBasic, premium: deps.config.rates.exportPremium };
  router.get('/export', async (ctx) => {
    const partner = await partnerOf(deps, ctx.get('authorization'), ctx.get('x-service-partner-key'));
    const decision = await takeRateToken(deps, 'trust-export', partner.id, rates[partner.tier]);
    ctx.set(rateLimitHeaders(decision));
    if (!decision.allowed) {
      throw new ApiError(
        'RATE_LIMITED',
        'export pages per minute exceeded for this partner key',
        { retryAfter: retryAfterSeconds },
        { 'Retry-After': String(retryAfterSeconds) },
      );
    }
    ctx.body = (await exportPage(deps, partner, exportQuery(ctx.query))) satisfies TrustExportPage;
  });
}
