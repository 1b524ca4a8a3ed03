// The agents' long polls waiting in this process, by server, and the wake-ups that end them: a
// command made in any process is published on one Redis channel that every process follows, and
// wakes the polls of its server here. A wake-up lost (Redis down, a subscriber reconnecting) costs
// at most one poll's wait: the next poll finds the command in PostgreSQL.
import type { Core } from '../core.ts';
import { channelOf, publish } from '../store/publish.ts';

const channel = 'commands:wake';
export const agentWakeChannel = (deps: Pick<Core, 'config'>) => channelOf(deps, channel);

export class AgentWaits {
  private readonly waiting = new Map<string, Set<() => void>>();
  private closedFlag = false;

  /** True once the process is shutting down: a poll answers with what it has instead of waiting. */
  get closed(): boolean {
    return this.closedFlag;
  }

  /** Ends every wait now and every later one at once (shutdown: no long poll may hold the process). */
  close(): void {
    this.closedFlag = true;
    this.wake([...this.waiting.keys()]);
  }

  /**
   * Registers a wait for the server's next wake-up: call it before looking for commands, so a
   * command made in between is not missed. `until` resolves on a wake-up, after `ms`, or when
   * `signal` aborts (the agent hung up); `cancel` forgets the wait.
   */
  register(serverId: string, signal?: AbortSignal): { until: (ms: number) => Promise<void>; cancel: () => void } {
    let wake!: () => void;
    const woken = new Promise<void>((resolve) => (wake = resolve));
    const set = this.waiting.get(serverId) ?? new Set();
    set.add(wake);
    this.waiting.set(serverId, set);
    const cancel = () => {
      set.delete(wake);
      if (set.size === 0 && this.waiting.get(serverId) === set) this.waiting.delete(serverId);
    };
    if (this.closedFlag) wake();
    const until = async (ms: number) => {
      let timer: NodeJS.Timeout | undefined;
      const aborted = () => wake();
      signal?.addEventListener('abort', aborted, { once: true });
      try {
        await Promise.race([woken, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
      } finally {
        clearTimeout(timer);
        signal?.removeEventListener('abort', aborted);
        cancel();
      }
    };
    return { until, cancel };
  }

  wake(serverIds: Iterable<string>): void {
    for (const id of serverIds) {
      const set = this.waiting.get(id);
      if (!set) continue;
      this.waiting.delete(id);
      for (const wake of set) wake();
    }
  }

  /** Polls waiting in this process (the bench reports it), or those of one server. */
  count(serverId?: string): number {
    if (serverId !== undefined) return this.waiting.get(serverId)?.size ?? 0;
    let n = 0;
    for (const set of this.waiting.values()) n += set.size;
    return n;
  }
}

/**
 * Wakes the servers' polls here and in every other process. Failure policy: the commands are
 * stored; a wake-up Redis cannot take reaches the other processes' agents at their next poll.
 */
export async function wakeAgents(deps: Core & AgentWaitsHeld, serverIds: string[]): Promise<void> {
  if (serverIds.length === 0) return;
  deps.agentWaits.wake(serverIds);
  await publish(deps, channel, serverIds.join(',')).catch((err: unknown) => {
    deps.log.warn({ err }, 'agent wake-up not published; the agents find the commands at their next poll');
  });
}

/** A wake-up published by a process (itself included: its own polls were woken already, a second wake finds none). */
export function onAgentWake(deps: Core & AgentWaitsHeld, message: string): void {
  deps.agentWaits.wake(message.split(',').filter((id) => id.length === 36));
}

/** The waits of this process. */
export interface AgentWaitsHeld {
  agentWaits: AgentWaits;
}
