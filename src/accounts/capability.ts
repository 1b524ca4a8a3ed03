// The accounts capability: accounts, their settings and API keys, their routes, and the API keys' cache.
import type { Capability } from '../capability.ts';
import { accountsRouter } from './accounts.route.ts';
import { apiKeyCaches } from './api-key.ts';
import type { ApiKeyDeps } from './api-key.ts';
import { apiKeysRouter } from './api-keys.route.ts';
import { accountSettingsRouter } from './settings.route.ts';

export const accountsCapability: Capability<ApiKeyDeps, ReturnType<typeof apiKeyCaches>> = {
  name: 'accounts',
  routers: (deps) => [accountsRouter(deps), apiKeysRouter(deps), accountSettingsRouter(deps)],
  caches: (core, drops) => apiKeyCaches(core.config, drops),
};
