// The agent's live hands on the game host, beside its log reading: BattlEye RCon (when configured),
// the commands the service hands it (command-poll.ts, command-runner.ts), the bans it enforces on
// join (ban-guard.ts), and the presence it keeps true between PlayerLists (presence.ts). Started
// when the agent follows the logs (not with --once); stopped with it.
import type { WireEvent } from '../ingest/events.ts';
import type { AgentOptions } from './options.ts';
import { realClock } from './agent-clock.ts';
import type { AgentClock } from './agent-clock.ts';
import { ActiveBans } from './active-bans.ts';
import { BanGuard } from './ban-guard.ts';
import { CommandRunner } from './command-runner.ts';
import { answerCommand, pollCommands } from './command-poll.ts';
import type { PollOptions } from './command-poll.ts';
import { GameRcon } from './game-rcon.ts';
import { LogPlayers } from './log-players.ts';
import { Presence, presenceIntervalMs } from './presence.ts';

export interface GameHostOptions extends AgentOptions {
  /** The live parts' time (tests run a faster one). */
  clock?: AgentClock;
  pullFiles?: () => Promise<string[]>;
}

/** A restart command of the host's own that runs longer is killed. */
const restartCommandTimeoutMs = 120_000;
const noop = () => undefined;

export class GameHost {
  readonly logPlayers = new LogPlayers();
  readonly rcon: GameRcon | undefined;
  readonly bans: ActiveBans;
  private readonly guard: BanGuard | undefined;
  private readonly clock: AgentClock;
  private readonly poll: PollOptions;
  private bansDue = false;
  private readonly presence = new Presence();

  constructor(
    private readonly opts: GameHostOptions,
    private readonly send: (events: WireEvent[]) => Promise<void>,
  ) {
    this.clock = opts.clock ?? realClock;
    const log = opts.log;
    this.poll = { ...opts, clock: this.clock };
    this.bans = new ActiveBans(opts, { requestTimeoutMs: opts.requestTimeoutMs, log, now: () => this.clock.now() });
    if (opts.rcon) {
      this.rcon = new GameRcon(opts.rcon, {
        debug: log.debug?.bind(log) ?? noop,
        info: log.info.bind(log),
        warn: log.warn.bind(log),
        error: log.error.bind(log),
      });
      const guard = (this.guard = new BanGuard(this.rcon, this.bans, log, () => this.clock.now()));
      this.rcon.onMessage((message) => guard.onRconMessage(message));
    }
  }

  /** Every event the log reader produced, in order (those read again at start included). */
  observe(event: WireEvent): void {
    this.logPlayers.observe(event);
    this.guard?.onLogEvent(event);
  }

  /** Runs until `stop` aborts; answers still owed are delivered until `hardStop`. */
  async run(stop: AbortSignal, hardStop: AbortSignal): Promise<void> {
    const runner = new CommandRunner(
      {
        rcon: this.rcon,
        clock: this.clock,
        pullFiles: this.opts.pullFiles,
        restartCommand: this.opts.restartCommand,
        restartCommandTimeoutMs,
        logPlayers: this.logPlayers,
        log: this.opts.log,
        onKick: () => (this.bansDue = true),
        answer: (commandId, result) => answerCommand(this.poll, commandId, result, hardStop),
      },
      stop,
    );
    const sweep = () => void this.guard?.sweep((name) => this.logPlayers.idOf(name)).catch(noop);
    const offLogin = this.rconLogin(sweep);
    this.rcon?.start();
    await Promise.all([
      pollCommands(this.poll, (commands) => runner.take(commands), stop),
      this.every(presenceIntervalMs, stop, () => this.sendPresence()),
      this.every(
        this.opts.filesIntervalMs,
        stop,
        async () => {
          this.bansDue = false;
          if (await this.bans.refresh()) sweep();
        },
        () => this.bansDue,
      ),
    ]);
    offLogin();
    await this.rcon?.close();
    await runner.settle();
  }

  private rconLogin(onLogin: () => void): () => void {
    return this.rcon ? this.rcon.onLogin(onLogin) : noop;
  }

  private async sendPresence(): Promise<void> {
    const events = await this.presence.events(this.rcon, this.logPlayers, this.clock.now());
    if (events.length > 0) await this.send(events);
  }

  /**
   * Runs `work` now and then every `intervalMs` until `stop` (a run never overlaps the last one);
   * `early` asked each second cuts a wait short (a kick came: the bans are refreshed at once).
   */
  private async every(intervalMs: number, stop: AbortSignal, work: () => Promise<void>, early: () => boolean = () => false): Promise<void> {
    while (!stop.aborted) {
      await work().catch((err: Error) => this.opts.log.warn({ err: err.message }, 'agent work failed; it runs again at its next time'));
      const until = this.clock.now() + intervalMs;
      while (!stop.aborted && this.clock.now() < until && !early()) await this.clock.sleep(Math.min(1000, until - this.clock.now()), stop);
    }
  }
}
