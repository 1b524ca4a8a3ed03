// The OpenAPI capability: the document's route, which needs nothing of the service.
import type { Capability } from '../capability.ts';
import { openApiRouter } from './openapi.route.ts';

export const openApiCapability: Capability = {
  name: 'openapi',
  routers: () => [openApiRouter()],
};
