// Key tiers in words from GET /api/limits: the numbers the pages show are the ones this instance
// enforces (the operator may have changed the defaults), never numbers of the dashboard's own.
import type { Limits } from './types.ts';

type ApiKeyTier = Limits['apiKeyTiers'][number];
type PartnerKeyTier = Limits['partnerKeyTiers'][number];

const tierNames: Record<ApiKeyTier['tier'] | PartnerKeyTier['tier'], string> = {
  standard: 'Standard',
  partner: 'Partner',
  basic: 'Basic',
  premium: 'Premium',
};

/** Select options for the offered tiers: the name alone until the limits have loaded. */
function tierOptions<T extends ApiKeyTier | PartnerKeyTier>(
  offered: T['tier'][],
  tiers: T[] | undefined,
  words: (t: T) => string,
): [string, string][] {
  return offered.map((name) => {
    const tier = tiers?.find((t) => t.tier === name);
    return [name, tier ? `${tierNames[name]} (${words(tier)})` : tierNames[name]];
  });
}

/** 'Standard (60 a minute, 100 a page)'. */
export const apiKeyTierOptions = (offered: ApiKeyTier['tier'][], limits: Limits | undefined) =>
  tierOptions(offered, limits?.apiKeyTiers, (t) => `${t.requestsPerMinute} a minute, ${t.maxPageSize} a page`);

/** 'Basic (60 pages a minute, up to 500 rows)'. */
export const partnerKeyTierOptions = (offered: PartnerKeyTier['tier'][], limits: Limits | undefined) =>
  tierOptions(offered, limits?.partnerKeyTiers, (t) => `${t.requestsPerMinute} pages a minute, up to ${t.maxPageSize} rows`);

/** 'Standard keys may make 60 requests a minute, partner keys 600.' */
export function apiKeyRatesInWords(limits: Limits): string {
  const [first, ...rest] = limits.apiKeyTiers.map((t) => [tierNames[t.tier], t.requestsPerMinute] as const);
  if (!first) return '';
  const others = rest.map(([name, n]) => `, ${name.toLowerCase()} keys ${n}`).join('');
  return `${first[0]} keys may make ${first[1]} requests a minute${others}.`;
}
