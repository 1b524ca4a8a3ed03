// The game-server agent (docs/agent.md): reads the DayZ admin logs of a folder, oldest file first,
// follows the newest as it grows and moves on when a newer one appears, and pushes what they say
// through ingestion. The state file records how far each file is acknowledged; a restart re-reads
// a file from its start (to rebuild dates, PlayerList blocks and recent hits exactly) but sends
// only what lies past that point, and the deterministic event ids make any overlap harmless.
import { stat } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';
import { listAdmFiles } from './adm-files.ts';
import { AdmReader } from './adm-reader.ts';
import type { ReaderCounts } from './adm-reader.ts';
import { pullGameFiles } from './game-files.ts';
import { GameHost } from './game-host.ts';
import { completeLines } from './line-source.ts';
import { AgentStopped, Sender } from './sender.ts';
import type { SenderCounts } from './sender.ts';
import type { AgentOptions } from './options.ts';
import { loadState, prepareStateFolder, removeLegacyState, saveState } from './state-file.ts';
import type { AgentState } from './state-file.ts';

export type AgentReport = ReaderCounts & SenderCounts & { files: number };

/** Lines it cannot read are logged this many times per file, then counted only. */
const unparsedLogLimit = 20;

class FileFollower {
  readonly reader: AdmReader;
  position = 0;
  unparsedLogged = 0;

  constructor(
    readonly name: string,
    readonly path: string,
    readonly skipUntil: number,
    agent: AgentOptions,
  ) {
    this.reader = new AdmReader({
      serverId: agent.serverId,
      fileName: name,
      utcOffsetMinutes: agent.utcOffsetMinutes,
      onUnparsed: (offset, reason, line) => {
        if (this.unparsedLogged++ < unparsedLogLimit)
          agent.log.warn({ file: name, offset, reason, line: line.slice(0, 200) }, 'admin-log line not understood; skipped');
      },
    });
  }
}

export class Agent {
  private readonly counts: ReaderCounts = { lines: 0, events: 0, skipped: 0, unparsed: 0 };
  private readonly hardStop = new AbortController();
  private readonly sender: Sender;
  private state: AgentState = { version: 1, serverId: '', files: {} };
  private readonly followers = new Map<string, FileFollower>();
  private readonly done = new Set<string>();
  private present = new Set<string>();
  private host: GameHost | undefined;
  /** An earlier version's state file, removed after the first save in the state's own place. */
  private legacyState: string | undefined;

  constructor(private readonly opts: AgentOptions) {
    this.legacyState = opts.legacyState;
    this.sender = new Sender({ ...opts, hardStop: this.hardStop.signal, onAck: (progress) => this.acknowledged(progress) });
  }

  /** The live hands on the game host while the agent follows the logs (undefined with --once). */
  get gameHost(): GameHost | undefined {
    return this.host;
  }

  /** The byte offset of a log file up to which every line is read and acknowledged (0: none yet). */
  acknowledgedThrough(fileName: string): number {
    return this.state.files[fileName] ?? 0;
  }

  /** Sends what has been read so far (a file's last lines too, when they made no event) and waits for its acknowledgement. */
  flush(): Promise<void> {
    return this.sender.flush();
  }

  report(): AgentReport {
    const live = { ...this.counts };
    for (const f of this.followers.values()) for (const k of Object.keys(live) as (keyof ReaderCounts)[]) live[k] += f.reader.counts[k];
    return { ...live, ...this.sender.counts, files: this.done.size + this.followers.size };
  }

  /**
   * Runs until every line present is acknowledged (--once) or `stop` is aborted (SIGTERM): then what
   * was read is sent, retried for at most stopGraceMs (also while the reader is held back by a
   * service that is down); what is still unacknowledged then is read again at the next start.
   */
  async run(stop: AbortSignal): Promise<AgentReport> {
    await prepareStateFolder(this.opts.state);
    this.state = await loadState(this.opts.state, this.opts.serverId, this.opts.legacyState);
    const refusalsLogged = new Set<string>();
    // Pulls the interval starts are awaited at the end: a run that returned has no file write left in flight.
    const pulling = new Set<Promise<string[]>>();
    const pull = async () => (this.opts.files ? pullGameFiles({ ...this.opts, dir: this.opts.files, refusalsLogged }) : []);
    const pullInTime = () => {
      const pulled = pull();
      pulling.add(pulled);
      void pulled.finally(() => pulling.delete(pulled));
    };
    let filesTimer: NodeJS.Timeout | undefined;
    let graceTimer: NodeJS.Timeout | undefined;
    const onStop = () => (graceTimer = setTimeout(() => this.hardStop.abort(), this.opts.stopGraceMs));
    stop.addEventListener('abort', onStop, { once: true });
    // Following the logs, the agent also acts on the game host (commands, bans, presence); --once only
    // reads. The host's work ends with the agent's, however that ends.
    const hostStop = new AbortController();
    const endHost = () => hostStop.abort();
    stop.addEventListener('abort', endHost, { once: true });
    this.host = this.opts.once
      ? undefined
      : new GameHost({ ...this.opts, pullFiles: this.opts.files ? pull : undefined }, async (events) => {
          for (const event of events) await this.sender.add(event);
        });
    const hostRun = this.host?.run(hostStop.signal, this.hardStop.signal);
    try {
      if (this.opts.files) {
        await pull();
        if (!this.opts.once) filesTimer = setInterval(pullInTime, this.opts.filesIntervalMs);
      }
      for (;;) {
        await this.readAll(stop);
        if (this.opts.once || stop.aborted) break;
        await delay(this.opts.pollMs, undefined, { signal: stop }).catch(() => undefined);
      }
      await this.sender.flush();
    } catch (err) {
      if (!(err instanceof AgentStopped)) throw err;
      this.opts.log.warn({}, err.message);
    } finally {
      endHost();
      await hostRun;
      stop.removeEventListener('abort', onStop);
      stop.removeEventListener('abort', endHost);
      clearTimeout(graceTimer);
      clearInterval(filesTimer);
      await Promise.all(pulling);
      this.sender.close();
    }
    return this.report();
  }

  /** Reads every complete line present in every file not finished yet, oldest file first. */
  private async readAll(stop: AbortSignal): Promise<void> {
    const files = await listAdmFiles(this.opts.logs);
    this.present = new Set(files.map((f) => f.name));
    for (const [i, file] of files.entries()) {
      if (stop.aborted) return;
      if (this.done.has(file.name)) continue;
      const newest = i === files.length - 1;
      const acked = this.state.files[file.name] ?? 0;
      let follower = this.followers.get(file.name);
      if (!follower) {
        const size = await stat(file.path).then(
          (st) => st.size,
          (err: NodeJS.ErrnoException) => {
            if (err.code === 'ENOENT') return undefined;
            throw err;
          },
        );
        if (size === undefined) continue; // gone since the listing
        if (!newest && acked > 0 && acked === size) {
          this.done.add(file.name);
          continue;
        }
        // A file shorter than what was acknowledged was replaced: it is read again from its start.
        if (acked > size) delete this.state.files[file.name];
        follower = new FileFollower(file.name, file.path, acked > size ? 0 : acked, this.opts);
        this.followers.set(file.name, follower);
      }
      await this.follow(follower, stop);
      if (!newest && !stop.aborted) this.retire(follower);
    }
  }

  private async follow(f: FileFollower, stop: AbortSignal): Promise<void> {
    try {
      await this.readLines(f, stop);
    } catch (err) {
      // Deleted while being read (old logs cleaned up): what was read stands, the rest is gone.
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      this.opts.log.warn({ file: f.name }, 'admin log removed while being read');
    }
  }

  private async readLines(f: FileFollower, stop: AbortSignal): Promise<void> {
    for await (const lines of completeLines(f.path, f.position)) {
      for (const line of lines) {
        if (line.overlong) {
          f.reader.readOverlong(line.offset);
          f.position = line.end;
          continue;
        }
        const events = f.reader.read(line.text, line.offset);
        for (const event of events) this.host?.observe(event);
        if (line.end > f.skipUntil) for (const event of events) await this.sender.add(event);
        f.position = line.end;
      }
      this.sender.mark(f.name, f.position);
      if (stop.aborted) return;
    }
  }

  /** A newer file exists: this one is complete (a line left without its end never will be). */
  private retire(f: FileFollower): void {
    for (const k of Object.keys(this.counts) as (keyof ReaderCounts)[]) this.counts[k] += f.reader.counts[k];
    this.followers.delete(f.name);
    this.done.add(f.name);
  }

  private async acknowledged(progress: Map<string, number>): Promise<void> {
    for (const [name, end] of progress) this.state.files[name] = Math.max(this.state.files[name] ?? 0, end);
    // Files gone from the folder are forgotten, so the state does not grow with every restart.
    for (const name of Object.keys(this.state.files)) if (!this.present.has(name)) delete this.state.files[name];
    await saveState(this.opts.state, this.state);
    if (this.legacyState !== undefined) {
      const legacy = this.legacyState;
      this.legacyState = undefined;
      // One left in place (a read-only folder) does no harm: the state in its own place is read first.
      await removeLegacyState(legacy).catch((err: Error) =>
        this.opts.log.warn({ file: legacy, err: err.message }, "an earlier version's state file could not be removed"),
      );
    }
  }
}
