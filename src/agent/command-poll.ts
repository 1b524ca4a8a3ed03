// The agent's side of the command long poll: asks the service for this server's commands (waiting
// up to 30 s for one), hands them to the runner, and asks again; answers each command's result,
// retried until the service takes it. A network error or a 5xx backs off; a refused token is said
// once and asked again slowly (the admin may rotate it into the agent's configuration).
import type { AgentClock } from './agent-clock.ts';
import type { CommandView } from '../commands/command.ts';
import type { CommandResult } from './command-runner.ts';
import { callService, describeAnswer } from './service-calls.ts';
import type { ServiceTarget } from './service-calls.ts';
import type { AgentLog } from './sender.ts';

/** The longest wait the service allows; the request's own timeout is a little longer. */
export const pollWaitSeconds = 30;
const pollAnswerMaxBytes = 1024 * 1024;

export interface PollOptions extends ServiceTarget {
  retryBaseMs: number;
  retryMaxMs: number;
  requestTimeoutMs: number;
  clock: AgentClock;
  log: AgentLog;
}

/** Polls until `signal` aborts; each batch of commands goes to `take`. */
export async function pollCommands(opts: PollOptions, take: (commands: CommandView[]) => void, signal: AbortSignal): Promise<void> {
  let failures = 0;
  let refusedSaid = false;
  while (!signal.aborted) {
    let waitMs = 0;
    try {
      const answer = await callService(opts, `/commands/next?wait=${pollWaitSeconds}`, {
        timeoutMs: pollWaitSeconds * 1000 + opts.requestTimeoutMs,
        maxBytes: pollAnswerMaxBytes,
        signal,
      });
      if (answer.status === 200 && !answer.over) {
        take((JSON.parse(answer.bytes.toString('utf8')) as { commands: CommandView[] }).commands);
        failures = 0;
      } else if (answer.status === 204) failures = 0;
      else if (answer.status === 401 || answer.status === 404) {
        if (!refusedSaid)
          opts.log.error({ reason: describeAnswer(answer) }, 'the service refused the command poll: check --server and --token');
        refusedSaid = true;
        waitMs = opts.retryMaxMs;
      } else waitMs = backoff(opts, failures++);
    } catch (err) {
      if (signal.aborted) return;
      opts.log.warn({ err: (err as Error).message }, 'command poll failed; asking again');
      waitMs = backoff(opts, failures++);
    }
    if (waitMs > 0) await opts.clock.sleep(waitMs, signal);
  }
}

const backoff = (opts: PollOptions, failures: number) => Math.min(opts.retryMaxMs, opts.retryBaseMs * 2 ** Math.min(failures, 20));

/** Posts a command's result until the service takes it (200), or refuses it for good (4xx other than 429). */
export async function answerCommand(opts: PollOptions, commandId: string, result: CommandResult, signal: AbortSignal): Promise<void> {
  for (let failures = 0; !signal.aborted; failures++) {
    try {
      const answer = await callService(opts, `/commands/${commandId}/result`, {
        method: 'POST',
        body: { status: result.status, detail: result.detail.slice(0, 500) },
        timeoutMs: opts.requestTimeoutMs,
        maxBytes: 64 * 1024,
      });
      if (answer.status === 200) return;
      if (answer.status >= 400 && answer.status < 500 && answer.status !== 429 && answer.status !== 408) {
        opts.log.warn({ commandId, reason: describeAnswer(answer) }, "the service did not take the command's result");
        return;
      }
    } catch (err) {
      opts.log.warn({ commandId, err: (err as Error).message }, 'command result not delivered; retrying');
    }
    await opts.clock.sleep(backoff(opts, failures), signal);
  }
}
