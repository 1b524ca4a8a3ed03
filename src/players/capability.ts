// The players capability: the account's player search and profiles, its notes and watch flags.
import type { Capability } from '../capability.ts';
import type { TrustDeps } from '../trust/lookup.ts';
import { playersRouter } from './players.route.ts';

export const playersCapability: Capability<TrustDeps> = {
  name: 'players',
  routers: (deps) => [playersRouter(deps)],
};
