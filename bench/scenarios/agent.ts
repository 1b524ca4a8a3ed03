// The game-server agent reading a large DayZ admin log (BENCH_AGENT_LINES, 500,000 lines) into the
// ingest server with --once, in a process of its own: lines per second end to end and the agent's
// peak memory (bench/agent.ts). Targets: >= 20,000 lines/s; < 150 MB whatever the file size.
import { ids } from '../fixture.ts';
import { agentBenchLines, agentTargets, describeAgent, measureAgent } from '../agent.ts';
import type { Scenario } from './scenario.ts';
import { fmt } from './scenario.ts';

export const agentScenario: Scenario = {
  name: 'agent',
  async run(ctx) {
    const a = await measureAgent({
      url: ctx.service.url,
      serverId: ids.ingestServer,
      token: ctx.creds.ingestToken,
      lines: agentBenchLines(),
      say: ctx.say,
    });
    const lines = describeAgent(a);
    for (const line of lines) ctx.say(line.startsWith('  ') ? line : `  ${line}`);
    const pass = lines.slice(1).every((l) => l.startsWith('PASS'));
    return [
      {
        cells: [
          `agent: ${fmt(a.lines)}-line admin log, --once, own process`,
          `${fmt(a.linesPerSec)} lines/s, peak ${fmt(a.peakRssMb)} MB`,
          '–',
          '–',
          `≥ ${fmt(agentTargets.linesPerSec)} lines/s, < ${agentTargets.peakRssMb} MB`,
          pass
            ? 'PASS'
            : `FAIL (${lines
                .slice(1)
                .filter((l) => l.startsWith('FAIL'))
                .map((l) => l.slice(13))
                .join('; ')})`,
        ],
        pass,
      },
    ];
  },
};
