// The bench's scenarios beyond the base read targets, limiter and ingestion of bench/run.ts. Each
// capability adds its scenario as a file of this folder and one line here; `BENCH_ONLY=name,...`
// runs only those (with the Koa baseline), for a quick check at a reduced size.
import type { Scenario } from './scenario.ts';
import { onlinePlayersScenario } from './online-players.ts';
import { backfillScenario } from './backfill.ts';
import { fleetScenario } from './fleet.ts';
import { agentScenario } from './agent.ts';
import { gameFilesScenario } from './game-files.ts';
import { trustScenario } from './trust.ts';
import { commandsScenario } from './commands.ts';
import { playerSearchScenario } from './player-search.ts';
import { webhooksScenario } from './webhooks.ts';

export const scenarios: Scenario[] = [
  onlinePlayersScenario,
  backfillScenario,
  fleetScenario,
  agentScenario,
  gameFilesScenario,
  trustScenario,
  commandsScenario,
  playerSearchScenario,
  webhooksScenario,
];
