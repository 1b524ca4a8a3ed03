// The agent as the benchmark runs it: its own process, --once, and at the end one JSON line with
// its report and its peak resident memory (the operating system's high-water mark).
import { readFileSync } from 'node:fs';
import process from 'node:process';
import { Agent } from '../src/agent/agent.ts';
import { agentDefaults } from '../src/agent/options.ts';

const env = process.env;
const log = {
  info: () => undefined,
  warn: (f: object, m: string) => process.stderr.write(`${m} ${JSON.stringify(f)}\n`),
  error: () => undefined,
};
const agent = new Agent({
  ...agentDefaults,
  url: env.BENCH_AGENT_URL!,
  serverId: env.BENCH_AGENT_SERVER!,
  token: env.BENCH_AGENT_TOKEN!,
  logs: env.BENCH_AGENT_LOGS!,
  state: `${env.BENCH_AGENT_LOGS!}/state.json`,
  utcOffsetMinutes: 0,
  once: true,
  log,
});
const started = performance.now();
const report = await agent.run(new AbortController().signal);
const seconds = (performance.now() - started) / 1000;
process.stdout.write(`${JSON.stringify({ report, seconds, peakRssMb: peakRssKb() / 1024 })}\n`);

/**
 * Linux's VmHWM: the high-water mark of this program's own memory. getrusage's maxRSS survives
 * exec, so it reports the parent's resident size at the fork when that was larger (the bench's,
 * ~175 MB after the fleet scenario, was read as the agent's own: a parent of 303 MB gave a child
 * that never held more than 39 MB a maxRSS of 303).
 */
function peakRssKb(): number {
  const hwm = process.platform === 'linux' ? /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8')) : null;
  return hwm ? Number(hwm[1]) : process.resourceUsage().maxRSS;
}
