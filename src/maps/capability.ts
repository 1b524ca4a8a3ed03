// The maps capability: map tiles.
import type { Capability } from '../capability.ts';
import type { Core } from '../core.ts';
import { tilesRouter } from './tiles.route.ts';

export const mapsCapability: Capability<Core> = {
  name: 'maps',
  routers: (deps) => [tilesRouter(deps)],
};
