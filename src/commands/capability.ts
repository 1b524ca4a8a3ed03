// The commands capability: what agents take and answer, what sessions send and schedule, and the
// jobs that expire commands and queue scheduled restarts.
import type { Capability } from '../capability.ts';
import type { Core } from '../core.ts';
import type { IngestTokenDeps } from '../ingest/ingest-token.ts';
import type { ServerOwnerDeps } from '../servers/server.ts';
import type { AgentWaitsHeld } from './agent-waits.ts';
import { agentCommandsRouter } from './agent.route.ts';
import { expireServerCommands } from './commands.ts';
import { commandsRouter } from './commands.route.ts';
import { restartScheduleRouter } from './restart-schedule.route.ts';
import { queueScheduledRestarts } from './restart-schedules.ts';

export const commandsCapability: Capability<Core & ServerOwnerDeps & AgentWaitsHeld & IngestTokenDeps> = {
  name: 'commands',
  routers: (deps) => [
    // The agent's first: GET /api/servers/:id/commands/next is no :commandId of the session
    // router, whose router.use() guard would answer the agent 401.
    agentCommandsRouter(deps),
    commandsRouter(deps),
    restartScheduleRouter(deps),
  ],
  // Untaken or unanswered commands expired, scheduled restarts queued from their warning time on.
  jobs: [
    { name: 'expire-server-commands', rule: '*/5 * * * * *', lockMs: 60_000, run: expireServerCommands },
    { name: 'queue-scheduled-restarts', rule: '*/5 * * * * *', lockMs: 60_000, run: queueScheduledRestarts },
  ],
};
