// The game-files capability: the files an agent pulls, and the jobs that sync and expire them.
import type { Capability } from '../capability.ts';
import type { Core } from '../core.ts';
import type { IngestTokenDeps } from '../ingest/ingest-token.ts';
import type { ServerOwnerDeps } from '../servers/server.ts';
import { expireFileEntries, syncRequestedFiles } from './file-jobs.ts';
import { gameFilesRouter } from './files.route.ts';

export const gameFilesCapability: Capability<Core & ServerOwnerDeps & IngestTokenDeps> = {
  name: 'game-files',
  routers: (deps) => [gameFilesRouter(deps)],
  // Requested syncs, each server under its own lock (so runs overlap, and one server's slow file
  // delays no other); every minute the expiry of bans and queue entries, whose lock frees the job
  // soon after a worker dies holding it.
  jobs: [
    { name: 'game-files', rule: '* * * * * *', lockMs: 0, lock: false, retries: 2, retryMs: 500, run: syncRequestedFiles },
    { name: 'game-files-expiry', rule: '0 * * * * *', lockMs: 3 * 60_000, retries: 2, retryMs: 1000, run: expireFileEntries },
  ],
};
