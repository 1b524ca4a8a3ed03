// A restart as admins run it, on the game host: `say -1` warnings at 300, 120, 60, 30 and 10 s
// before (those within the time left), `#lock` at 60 s (no one joins a server about to go down),
// the ban and priority files pulled and written at 30 s (the game reads them when it starts), then
// `#shutdown`; the host's process supervisor starts the game again, or the agent's own
// --restart-command does. Counted from the service's `dueInSeconds`, so an agent restarted
// mid-countdown resumes it instead of starting it over.
import type { AgentClock } from './agent-clock.ts';
import type { GameRcon } from './game-rcon.ts';
import { runLocalCommand } from './local-command.ts';
import { RconUnavailable } from './rcon/client.ts';

/** What a command that needs RCon answers on an agent without it. */
export const noRconDetail = "no RCon on this server's agent";

export const warningsAtSeconds = [300, 120, 60, 30, 10] as const;
export const lockAtSeconds = 60;
export const filesAtSeconds = 30;

export type RestartAction = 'warn' | 'lock' | 'files' | 'shutdown';
export interface RestartStep {
  atSeconds: number;
  action: RestartAction;
}

/** The steps of a restart due in `dueInSeconds`, in order; a lock or file pull already late happens at once. */
export function restartSteps(dueInSeconds: number): RestartStep[] {
  const left = Math.max(0, dueInSeconds);
  const steps: RestartStep[] = warningsAtSeconds.filter((s) => s <= left).map((s) => ({ atSeconds: s, action: 'warn' }));
  steps.push(
    { atSeconds: Math.min(lockAtSeconds, left), action: 'lock' },
    { atSeconds: Math.min(filesAtSeconds, left), action: 'files' },
    { atSeconds: 0, action: 'shutdown' },
  );
  // Stable: at 60 s the warning comes before the lock, at 30 s before the file pull.
  return steps.sort((a, b) => b.atSeconds - a.atSeconds);
}

export function warningText(seconds: number, message: string | null): string {
  const when = seconds >= 60 ? `${seconds / 60} minute${seconds === 60 ? '' : 's'}` : `${seconds} seconds`;
  return `Server restart in ${when}${message ? `: ${message}` : ''}`;
}

export interface RestartHands {
  rcon: GameRcon | undefined;
  clock: AgentClock;
  /** Pulls and writes ban.txt and priority.txt (with --files); the names written. */
  pullFiles: (() => Promise<string[]>) | undefined;
  restartCommand: string | undefined;
  restartCommandTimeoutMs: number;
}

/** The agent was stopped during the countdown: no answer (the service hands the restart to the next agent). */
export class RestartAbandoned extends Error {}

/** Runs the sequence; resolves with the result to answer. */
export async function runRestart(
  hands: RestartHands,
  dueInSeconds: number,
  message: string | null,
  signal: AbortSignal,
): Promise<{ status: 'done' | 'failed'; detail: string }> {
  const dueAtMs = hands.clock.now() + dueInSeconds * 1000;
  const notes: string[] = [];
  let shutDown = false;
  for (const step of restartSteps(dueInSeconds)) {
    await hands.clock.sleep(dueAtMs - step.atSeconds * 1000 - hands.clock.now(), signal);
    if (signal.aborted) throw new RestartAbandoned('stopped during the countdown');
    if (step.action === 'files') notes.push(await pulled(hands));
    else if (step.action !== 'shutdown') {
      // Without RCon there is nobody to warn or lock out: the files and the local command remain.
      if (hands.rcon)
        notes.push(
          await onServer(hands.rcon, step.action === 'warn' ? `warned at ${step.atSeconds} s` : 'locked', (rcon) =>
            step.action === 'warn' ? rcon.say(warningText(step.atSeconds, message)) : rcon.lock(),
          ),
        );
    } else if (hands.rcon) {
      const sent = await shutdown(hands.rcon);
      shutDown = sent.ok;
      notes.push(sent.note);
    }
  }
  if (hands.restartCommand) {
    const ran = await runLocalCommand(hands.restartCommand, hands.restartCommandTimeoutMs);
    const ok = !ran.timedOut && ran.exitCode === 0;
    notes.push(
      ran.timedOut
        ? 'the restart command timed out'
        : `the restart command exited ${ran.exitCode ?? ran.signal}${ran.outputTail ? ` (${ran.outputTail.slice(-120)})` : ''}`,
    );
    return { status: ok ? 'done' : 'failed', detail: notes.join('; ') };
  }
  return { status: shutDown ? 'done' : 'failed', detail: notes.join('; ') };
}

async function onServer(rcon: GameRcon, did: string, act: (rcon: GameRcon) => Promise<unknown>): Promise<string> {
  try {
    await act(rcon);
    return did;
  } catch (err) {
    return `${did} failed (${(err as Error).message})`;
  }
}

async function pulled(hands: RestartHands): Promise<string> {
  if (!hands.pullFiles) return 'no files to pull (no --files)';
  const written = await hands.pullFiles();
  return written.length > 0 ? `files written (${written.join(', ')})` : 'files pulled (unchanged)';
}

/** `#shutdown`; a server that goes down before answering has taken it (the session drops or times out). */
async function shutdown(rcon: GameRcon): Promise<{ ok: boolean; note: string }> {
  try {
    await rcon.shutdown();
    return { ok: true, note: 'shut down' };
  } catch (err) {
    if (err instanceof RconUnavailable && (err.reason === 'disconnected' || err.reason === 'timeout'))
      return { ok: true, note: 'shut down (the server stopped answering)' };
    return { ok: false, note: `shutdown not sent (${(err as Error).message})` };
  }
}
