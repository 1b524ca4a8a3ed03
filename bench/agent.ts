// Benchmark scenario: the agent reading a large DayZ admin log (BENCH_AGENT_LINES, 500,000) into
// the service with --once, in a process of its own: lines per second end to end (agent start to
// the last acknowledgement) and its peak memory. Targets: >= 20,000 lines/s, < 150 MB.
// Part of `npm run bench` (bench/scenarios/agent.ts); alone, at any size and without the bench's
// large fixture: `BENCH_AGENT_LINES=20000 npm run bench:agent` (bench/agent-run.ts: its own schema
// "bench_agent" of the bench database, a service child of its own).
import { spawn } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { writeBenchLog } from './adm-log.ts';
import { agentNodeFlags } from './v8-flags.ts';

export const agentTargets = { linesPerSec: 20_000, peakRssMb: 150 };

export interface AgentOutcome {
  lines: number;
  fileMb: number;
  seconds: number;
  linesPerSec: number;
  peakRssMb: number;
  report: {
    lines: number;
    events: number;
    sent: number;
    accepted: number;
    duplicates: number;
    rejected: number;
    unparsed: number;
    retries: number;
  };
}

export const agentBenchLines = () => {
  const raw = process.env.BENCH_AGENT_LINES;
  const n = raw === undefined || raw === '' ? 500_000 : Number(raw);
  if (!Number.isInteger(n) || n < 100) throw new Error(`BENCH_AGENT_LINES=${raw}: expected an integer >= 100`);
  return n;
};

export async function measureAgent(o: {
  url: string;
  serverId: string;
  token: string;
  lines: number;
  say: (line: string) => void;
}): Promise<AgentOutcome> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-agent-'));
  try {
    // A name of its own per run: event ids derive from it, so a later run is new data, not duplicates.
    const file = join(dir, `DayZServer_x64_bench_${Date.now()}.ADM`);
    await writeBenchLog(file, o.lines);
    const fileMb = (await stat(file)).size / 1024 / 1024;
    o.say(`  agent: ${o.lines.toLocaleString('en')} lines (${fileMb.toFixed(0)} MB) written; reading them with --once ...`);
    const child = spawn(process.execPath, [...agentNodeFlags(), '--import', 'tsx', 'bench/agent-child.ts'], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      env: { ...process.env, BENCH_AGENT_URL: o.url, BENCH_AGENT_SERVER: o.serverId, BENCH_AGENT_TOKEN: o.token, BENCH_AGENT_LOGS: dir },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    if (code !== 0) throw new Error(`the agent exited with code ${code}`);
    const { report, seconds, peakRssMb } = JSON.parse(stdout.trim().split('\n').at(-1)!) as Pick<
      AgentOutcome,
      'report' | 'seconds' | 'peakRssMb'
    >;
    return { lines: report.lines, fileMb, seconds, linesPerSec: report.lines / seconds, peakRssMb, report };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export function describeAgent(a: AgentOutcome): string[] {
  const fast = a.linesPerSec >= agentTargets.linesPerSec;
  const small = a.peakRssMb < agentTargets.peakRssMb;
  const clean = a.report.unparsed === 0 && a.report.rejected === 0 && a.report.accepted + a.report.duplicates === a.report.sent;
  return [
    `  agent: ${Math.round(a.linesPerSec).toLocaleString('en')} lines/s (${a.lines.toLocaleString('en')} lines, ${a.report.sent.toLocaleString('en')} events, ` +
      `${a.seconds.toFixed(1)} s), peak memory ${a.peakRssMb.toFixed(0)} MB; accepted ${a.report.accepted}, duplicates ${a.report.duplicates}, ` +
      `rejected ${a.report.rejected}, unparsed ${a.report.unparsed}, retries ${a.report.retries}`,
    `${fast ? 'PASS' : 'FAIL'}  agent: ${Math.round(a.linesPerSec).toLocaleString('en')} lines/s >= ${agentTargets.linesPerSec.toLocaleString('en')}`,
    `${small ? 'PASS' : 'FAIL'}  agent: peak memory ${a.peakRssMb.toFixed(0)} MB < ${agentTargets.peakRssMb} MB`,
    `${clean ? 'PASS' : 'FAIL'}  agent: every line understood, every event accepted once`,
  ];
}
