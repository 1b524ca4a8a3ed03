// The trust capability document (/.well-known/service-trust.json): endpoints, score schema and
// bands, identifier kinds, reason categories, and with signing the algorithm and the JWKS.
import type { TrustDiscovery } from '../http/schema-types.ts';
import type { Config } from '../config.ts';
import { schemas } from '../http/schemas.ts';
import { bandThresholds, reasonCategories, scoringRules } from './score.ts';
import { exportProofType, lookupProofAudience, lookupProofType, proofAlgorithm, trustSigner } from './signing.ts';

export const discoveryPath = '/.well-known/service-trust.json';

/** How a score follows from a lookup's signals and the rules: what a client needs to reproduce it. */
export const scoringSteps = [
  "For each entry of signals.communities (one community each), its term: the voice's points plus the play's, bounded to [-communityBound, +communityBound], then rounded to the nearest integer, halves up (floor(x + 0.5)).",
  'Voice points (null voice: 0): overturned: voice.points.overturned. Otherwise voice.points[status] x categoryWeights[category] x the length weight (lengthDays null, or beyond every row of lengthWeights: 1; else the weight of the first row with lengthDays <= maxDays); an expired voice is further multiplied by 0.5 ^ (endedDaysAgo / expiredHalfLifeDays).',
  'Play points: play.max x min(1, ln(1 + playMinutes / 60) / ln(1 + play.fullAtHours)).',
  "Aim: a community shows unusual aim when kills >= aim.minKills and (headshotRatio > aim.headshotRatioOver or accuracy > aim.accuracyOver), null ratios counting as 0; with k such communities, aim's points are aim.pointsPerCommunity x max(0, k - 1).",
  "Score: base + the sum of the terms + aim's points, bounded to [0, 100].",
  'Band: trusted from bands.trusted, neutral from bands.neutral, watch from bands.watch, high_risk below.',
];

/** The TrustScore schema, standing alone (no $id of this service's schema set). */
const scoreSchema = () =>
  Object.fromEntries(Object.entries(schemas.find((s) => s.$id === 'trust-score.json')!).filter(([k]) => k !== '$id'));

export async function discoveryDocument(config: Config): Promise<TrustDiscovery> {
  const signer = await trustSigner(config);
  return {
    issuer: config.trustIssuer,
    endpoints: {
      lookup: '/api/v1/trust/{identifier}',
      entries: '/api/v1/trust/{identifier}/entries',
      playerPage: '/p/{identifier}',
      export: '/api/v1/trust/export',
      discovery: discoveryPath,
      openapi: '/api/v1/openapi.json',
    },
    scoreSchema: scoreSchema(),
    bands: {
      trusted: { min: bandThresholds.trusted, max: 100 },
      neutral: { min: bandThresholds.neutral, max: bandThresholds.trusted - 1 },
      watch: { min: bandThresholds.watch, max: bandThresholds.neutral - 1 },
      high_risk: { min: 0, max: bandThresholds.watch - 1 },
    },
    identifierKinds: ['steam64', 'legacy', 'serviceId', 'chat', 'dayzId', 'battleyeGuid', 'console'],
    reasonCategories: [...reasonCategories],
    exportStatuses: ['active', 'overturned', 'expired'],
    scoring: { rules: scoringRules, steps: scoringSteps },
    ...(signer
      ? {
          signing: {
            algorithm: proofAlgorithm,
            proofType: lookupProofType,
            audience: lookupProofAudience,
            exportProofType,
            exportAudience: 'the partner key id',
            jwks: signer.jwks,
          },
        }
      : {}),
  };
}
