// CPU seconds spent by each part of the system between two snapshots: the service (its process and
// every process it started, the web processes of WEB_CONCURRENCY), PostgreSQL (every `postgres`
// process: backends, WAL writer, a replica's startup process) and Redis (every `redis-server`,
// the nodes of a cluster included). Divided by the work done between the snapshots, these are the
// per-batch and per-request costs the capacity model (docs/scaling.md) multiplies. Read from
// /proc, so Linux only; elsewhere a snapshot is empty and the costs read as unknown.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

export type Part = 'service' | 'postgres' | 'redis';
export interface CpuSnapshot {
  /** Clock ticks of user and system time by part; a process gone before the second snapshot is not counted. */
  ticks: Map<number, { part: Part; ticks: number }>;
}

const ticksPerSecond = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

interface Stat {
  pid: number;
  comm: string;
  ppid: number;
  ticks: number;
}

function statOf(pid: string): Stat | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined; // gone meanwhile
  }
  // The command name is in parentheses and may hold spaces: the fields after it are split from its end.
  const close = text.lastIndexOf(')');
  const fields = text.slice(close + 2).split(' ');
  return {
    pid: Number(pid),
    comm: text.slice(text.indexOf('(') + 1, close),
    ppid: Number(fields[1]),
    ticks: Number(fields[11]) + Number(fields[12]),
  };
}

export function cpuSnapshot(servicePid: number | undefined): CpuSnapshot {
  const ticks: CpuSnapshot['ticks'] = new Map();
  let stats: Stat[];
  try {
    stats = readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .map(statOf)
      .filter((s): s is Stat => s !== undefined);
  } catch {
    return { ticks };
  }
  const byPid = new Map(stats.map((s) => [s.pid, s]));
  const underService = (s: Stat): boolean => {
    for (let at: Stat | undefined = s; at; at = byPid.get(at.ppid)) if (at.pid === servicePid) return true;
    return false;
  };
  for (const s of stats) {
    const part: Part | undefined =
      s.comm === 'postgres'
        ? 'postgres'
        : s.comm === 'redis-server'
          ? 'redis'
          : servicePid !== undefined && underService(s)
            ? 'service'
            : undefined;
    if (part) ticks.set(s.pid, { part, ticks: s.ticks });
  }
  return { ticks };
}

/** CPU seconds by part between two snapshots (processes present in both). */
export function cpuSpent(before: CpuSnapshot, after: CpuSnapshot): Record<Part, number> {
  const spent: Record<Part, number> = { service: 0, postgres: 0, redis: 0 };
  for (const [pid, now] of after.ticks) {
    const then = before.ticks.get(pid);
    if (then) spent[now.part] += (now.ticks - then.ticks) / ticksPerSecond;
  }
  return spent;
}

/** "service 1.23 ms, PostgreSQL 0.45 ms, Redis 0.06 ms" of CPU a unit of work. */
export function cpuPerUnitText(spent: Record<Part, number>, units: number, unit: 'ms' | 'µs' = 'ms'): string {
  const scale = unit === 'ms' ? 1e3 : 1e6;
  const each = (s: number) => (units > 0 ? ((s * scale) / units).toFixed(unit === 'ms' ? 2 : 0) : '?');
  return `service ${each(spent.service)} ${unit}, PostgreSQL ${each(spent.postgres)} ${unit}, Redis ${each(spent.redis)} ${unit}`;
}
