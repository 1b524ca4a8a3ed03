// The trust capability document (/.well-known/service-trust.json): endpoints, score schema and
// bands, identifier kinds, reason categories, and with signing the algorithm and the JWKS.
import type { Config } from '../config.ts';
import { schemas } from '../http/schemas.ts';
import { reasonCategories } from './pool.repo.ts';
import { bandThresholds } from './score.ts';
import { exportProofType, lookupProofAudience, lookupProofType, proofAlgorithm, trustSigner } from './signing.ts';

export const discoveryPath = '/.well-known/service-trust.json';

/** The TrustScore schema, standing alone (no $id of this service's schema set). */
const scoreSchema = () => Object.fromEntries(Object.entries(schemas.find((s) => s.$id === 'trust-score.json')!).filter(([k]) => k !== '$id'));

export async function discoveryDocument(config: Config): Promise<Record<string, unknown>> {
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
    ...(signer ? {
      signing: {
        algorithm: proofAlgorithm, proofType: lookupProofType, audience: lookupProofAudience,
        exportProofType, exportAudience: 'the partner key id', jwks: signer.jwks,
      },
    } : {}),
  };
}
