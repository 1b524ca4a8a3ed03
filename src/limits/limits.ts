// The tiers and rate limits as this instance is configured, in the shape of schemas/limits.json:
// what the dashboard tells its users instead of numbers of its own.
import type { Config } from '../config.ts';
import type { Limits } from '../http/schema-types.ts';
import { pageCaps as dataApiPageCaps } from '../data-api/access.ts';
import { pageCaps as exportPageCaps } from '../trust/export.ts';

export function limitsOf(config: Config): Limits {
  const { rates } = config;
  // The controller's caps (sign-in and chat included) are one switch: off behind a gateway that limits.
  const controller = (perMinute: number) => (config.controllerRateLimit ? perMinute : null);
  return {
    apiKeyTiers: [
      { tier: 'standard', requestsPerMinute: rates.dataStandard, maxPageSize: dataApiPageCaps.standard },
      { tier: 'partner', requestsPerMinute: rates.dataPartner, maxPageSize: dataApiPageCaps.partner },
    ],
    partnerKeyTiers: [
      { tier: 'basic', requestsPerMinute: rates.exportBasic, maxPageSize: exportPageCaps.basic },
      { tier: 'premium', requestsPerMinute: rates.exportPremium, maxPageSize: exportPageCaps.premium },
    ],
    perMinute: {
      controller: controller(rates.controller),
      signIn: controller(rates.auth),
      chatAction: controller(rates.chat),
      trustLookup: rates.trustLookup,
      ingest: rates.ingest,
    },
  };
}
