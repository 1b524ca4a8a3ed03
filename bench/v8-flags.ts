// The V8 flags the service and the agent run with, read from the one place each is written
// (bin/service; package.json's agent script), so the bench measures the processes users run.
import { readFileSync } from 'node:fs';

const root = new URL('../', import.meta.url);

/** The `v8_flags='...'` line of bin/service. */
export function serviceNodeFlags(): string[] {
  const launcher = readFileSync(new URL('bin/service', root), 'utf8');
  const flags = /^v8_flags='([^']*)'$/m.exec(launcher)?.[1];
  if (flags === undefined) throw new Error("bin/service: no v8_flags='...' line");
  return flags.split(' ');
}

/** The flags before the bundle in package.json's `agent` script. */
export function agentNodeFlags(): string[] {
  const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { scripts: Record<string, string> };
  const words = pkg.scripts.agent!.split(' ');
  return words.slice(1, words.indexOf('dist/agent.mjs'));
}
