// The audit capability: the audit log's route.
import type { Capability } from '../capability.ts';
import type { Core } from '../core.ts';
import { auditRouter } from './audit.route.ts';

export const auditCapability: Capability<Core> = {
  name: 'audit',
  routers: (deps) => [auditRouter(deps)],
};
