// The derived-state capability: the job that keeps Redis' derived state in step with PostgreSQL.
import type { Capability } from '../capability.ts';
import type { Core } from '../core.ts';
import type { ServerReadDeps } from '../stats/server-reads.ts';
import { reconcileDerivedState } from './reconcile.ts';

export const derivedCapability: Capability<Core & ServerReadDeps> = {
  name: 'derived',
  jobs: [
    {
      // Redis state lost or lagging behind PostgreSQL (a restart, a flush, a write that failed
      // after commit): rebuild those servers. Logged only when it rebuilt something.
      name: 'reconcile-derived-state',
      rule: '*/5 * * * * *',
      lockMs: 10 * 60_000,
      run: async (deps) => {
        const result = await reconcileDerivedState(deps);
        return result.rebuilt.length > 0 ? result : undefined;
      },
    },
  ],
};
