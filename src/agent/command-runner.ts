// Carries out the commands the service hands the agent, each once (a command handed again, while
// this agent still works on it or after it answered, is not run twice), and answers each: a message
// to every player, a kick (found by any id form: the GUID BattlEye names, or the name the admin log
// gives the id), a restart (restart-sequence.ts). Without RCon, message and kick fail, and a restart
// runs the host's own restart command or fails the same way.
import { battleyeGuidOf, dayzIdOf, isSteam64 } from '../identities/id-forms.ts';
import { notPresentDetail } from '../commands/command.ts';
import type { CommandView, KickParams, MessageParams, RestartParams } from '../commands/command.ts';
import type { GameRcon } from './game-rcon.ts';
import type { LogPlayers } from './log-players.ts';
import { noRconDetail, RestartAbandoned, runRestart } from './restart-sequence.ts';
import type { RestartHands } from './restart-sequence.ts';
import type { AgentLog } from './sender.ts';

export type CommandResult = { status: 'done' | 'failed'; detail: string };

export interface RunnerHands extends RestartHands {
  logPlayers: LogPlayers;
  log: AgentLog;
  /** Posts the answer (retried until the service takes it or refuses it for good). */
  answer: (commandId: string, result: CommandResult) => Promise<void>;
  /** A kick came: the ban it follows should be held at once (a quick rejoin is kicked too). */
  onKick: () => void;
}

/** Ids of commands this agent ran or runs, kept this many (a re-hand comes within minutes). */
const rememberedCommands = 1000;

export class CommandRunner {
  private readonly seen = new Set<string>();
  private restartUnderWay: string | undefined;
  private readonly running = new Set<Promise<void>>();

  constructor(
    private readonly hands: RunnerHands,
    private readonly signal: AbortSignal,
  ) {}

  /** Starts each command not seen before; returns at once. */
  take(commands: CommandView[]): void {
    for (const command of commands) {
      if (this.seen.has(command.id)) continue;
      this.seen.add(command.id);
      if (this.seen.size > rememberedCommands) this.seen.delete(this.seen.values().next().value!);
      const work = this.run(command).finally(() => this.running.delete(work));
      this.running.add(work);
    }
  }

  /** Waits for the commands under way (the agent is stopping: restarts in countdown are abandoned). */
  async settle(): Promise<void> {
    await Promise.all([...this.running]);
  }

  private async run(command: CommandView): Promise<void> {
    let result: CommandResult;
    try {
      result = await this.resultOf(command);
    } catch (err) {
      if (err instanceof RestartAbandoned) return;
      result = { status: 'failed', detail: `the agent failed: ${(err as Error).message}` };
    }
    this.hands.log.info({ commandId: command.id, kind: command.kind, ...result }, 'command carried out');
    await this.hands.answer(command.id, result);
  }

  private async resultOf(command: CommandView): Promise<CommandResult> {
    const { rcon } = this.hands;
    switch (command.kind) {
      case 'message': {
        if (!rcon) return { status: 'failed', detail: noRconDetail };
        await rcon.say((command.params as MessageParams).text);
        return { status: 'done', detail: 'sent to every player' };
      }
      case 'kick':
        try {
          return rcon ? await this.kick(rcon, command.params as KickParams) : { status: 'failed', detail: noRconDetail };
        } finally {
          // After the kick: the bans' refresh sweeps the server, and this kick came first.
          this.hands.onKick();
        }
      case 'restart':
        return this.restart(command);
    }
  }

  private async kick(rcon: GameRcon, params: KickParams): Promise<CommandResult> {
    const players = await rcon.players();
    const guid = isSteam64(params.platformId) ? battleyeGuidOf(params.platformId) : undefined;
    const logName =
      this.hands.logPlayers.nameOf(params.platformId) ??
      (isSteam64(params.platformId) ? this.hands.logPlayers.nameOf(dayzIdOf(params.platformId)) : undefined);
    const seat =
      players.find((p) => guid !== undefined && p.guid === guid) ?? (logName === undefined ? undefined : rcon.seatNamed(logName));
    if (!seat) {
      const gone = rcon.kickedSeat((s) => (guid !== undefined && s.guid === guid) || (logName !== undefined && s.name === logName));
      return { status: 'done', detail: gone ? `${gone.name} (#${gone.number}) was kicked already` : notPresentDetail };
    }
    const kicked = await rcon.kick(seat.number, params.reason ?? 'Kicked by an admin');
    return {
      status: 'done',
      detail: kicked ? `kicked ${seat.name} (#${seat.number})` : `${seat.name} (#${seat.number}) was kicked already`,
    };
  }

  private async restart(command: CommandView): Promise<CommandResult> {
    const { rcon, restartCommand } = this.hands;
    if (!rcon && !restartCommand) return { status: 'failed', detail: noRconDetail };
    if (this.restartUnderWay) return { status: 'failed', detail: `another restart is under way (command ${this.restartUnderWay})` };
    this.restartUnderWay = command.id;
    try {
      const params = command.params as RestartParams;
      return await runRestart(this.hands, command.dueInSeconds ?? params.delaySeconds, params.message, this.signal);
    } finally {
      this.restartUnderWay = undefined;
    }
  }
}
