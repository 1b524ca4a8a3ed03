// The demo while it runs, as real servers would be: the first server's game writes its admin log
// (connects, a PlayerList every 5 minutes, now and then a kill) and its agent follows the folder
// (the committed logs, copied as they are, then that live log), sending presence every 30 s as on
// a game host; the second server's mod sends its players' heartbeats and its status every 30 s. So
// both servers stay online with their players listed, and those players' play time grows as play
// does. Stopping ends the sessions (disconnects, sent and acknowledged) before the agent stops.
import { randomUUID } from 'node:crypto';
import { appendFile, copyFile, mkdir, rm, stat, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { createApp } from '../app.ts';
import { Agent } from '../agent/agent.ts';
import type { AgentReport } from '../agent/agent.ts';
import { realClock } from '../agent/agent-clock.ts';
import type { AgentClock } from '../agent/agent-clock.ts';
import { agentDefaults } from '../agent/options.ts';
import type { AgentOptions } from '../agent/options.ts';
import type { Deps } from '../deps.ts';
import { dayzIdOf } from '../identities/id-forms.ts';
import { ingestBatch } from '../ingest/ingest.ts';
import { connectLine, disconnectLine, historyFile, killLines, logHeader, playerListLines, sessionFile } from './demo-log.ts';
import type { LogPerson } from './demo-log.ts';
import { demoFixture, demoLogsDir } from './load-demo.ts';
import type { DemoData } from './load-demo.ts';

/** DayZ writes a PlayerList block this often. */
export const playerListEveryMs = 5 * 60_000;
/** The second server's mod reports this often, as the agent's presence does. */
export const heartbeatEveryMs = 30_000;
/** How long the agent may take to read and deliver the committed logs at start. */
const catchUpTimeoutMs = 120_000;

export interface DemoLiveOptions {
  /** The agent's folder, made anew at each start: its logs (logs/) and its state file. */
  dir: string;
  /** The live parts' time: the real clock, or a test's. */
  clock?: AgentClock;
  /** Agent settings a test quickens (poll and batch intervals). */
  agent?: Partial<AgentOptions>;
}

export interface DemoLive {
  /** The folder the agent follows. */
  logsDir: string;
  /** The log the demo's game writes while it runs. */
  liveLog: string;
  /** What the agent read and sent until the committed logs and the live log's start were acknowledged. */
  caughtUp: AgentReport;
  /** Ends the players' sessions, waits for the agent to deliver them, stops the agent. */
  stop: () => Promise<void>;
}

const logFileName = (ms: number) => `DayZServer_x64_${new Date(ms).toISOString().slice(0, 19).replace('T', '_').replaceAll(':', '-')}.ADM`;

/** Waits until the agent acknowledged each file through its size (a file's last lines make no batch by themselves: flushed). */
async function acknowledged(agent: Agent, running: Promise<unknown>, files: string[], timeoutMs: number): Promise<void> {
  let failed: unknown;
  void running.catch((err: unknown) => (failed = err));
  const sizes = await Promise.all(
    files.map(async (path) => ({ name: path.slice(path.lastIndexOf('/') + 1), size: (await stat(path)).size })),
  );
  const until = Date.now() + timeoutMs;
  while (!sizes.every((f) => agent.acknowledgedThrough(f.name) >= f.size)) {
    if (failed !== undefined) throw failed as Error;
    if (Date.now() > until) throw new Error(`the demo's agent did not deliver its logs within ${timeoutMs / 1000} s`);
    await agent.flush();
    await delay(20);
  }
}

export async function startDemoLive(deps: Deps, demo: DemoData, opts: DemoLiveOptions): Promise<DemoLive> {
  const clock = opts.clock ?? realClock;
  const logsDir = join(opts.dir, 'logs');
  await rm(opts.dir, { recursive: true, force: true });
  await mkdir(logsDir, { recursive: true });
  for (const file of [historyFile, sessionFile]) await copyFile(join(demoLogsDir, file), join(logsDir, file));
  const startMs = clock.now();
  const online: LogPerson[] = demo.online.map((p) => ({ id: dayzIdOf(p.platformId), name: p.name }));
  const liveLog = join(logsDir, logFileName(startMs));
  await writeFile(liveLog, logHeader(startMs) + online.map((p) => connectLine(p, startMs)).join('') + playerListLines(online, startMs));

  const server: Server = createApp(deps).listen(0, '127.0.0.1');
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  const [logged, fed] = demo.servers as [DemoData['servers'][number], DemoData['servers'][number]];
  const agent = new Agent({
    ...agentDefaults,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    serverId: logged.id,
    token: logged.ingestToken,
    logs: logsDir,
    state: join(opts.dir, 'agent-state.json'),
    utcOffsetMinutes: 0,
    once: false,
    clock,
    log: deps.log,
    ...opts.agent,
  });
  const stopAgent = new AbortController();
  const running = agent.run(stopAgent.signal);
  const stopTicks = new AbortController();
  const mod = new ServerMod(deps, fed.id, demo.online, clock);
  let ticking: Promise<void> | undefined;
  try {
    await acknowledged(agent, running, [join(logsDir, historyFile), join(logsDir, sessionFile), liveLog], catchUpTimeoutMs);
    await mod.connect();
    ticking = tick(deps, clock, stopTicks.signal, new LiveLog(liveLog, online, startMs), mod);
  } catch (err) {
    stopAgent.abort();
    server.close();
    throw err;
  }
  const caughtUp = agent.report();

  const stop = async () => {
    stopTicks.abort();
    await ticking;
    const endMs = clock.now();
    await appendFile(liveLog, online.map((p) => disconnectLine(p, endMs)).join(''));
    await mod.disconnect();
    await acknowledged(agent, running, [liveLog], 10_000).catch((err: Error) =>
      deps.log.warn({ err: err.message }, "the demo's last log lines were not delivered before it stopped"),
    );
    stopAgent.abort();
    await running.catch((err: Error) => deps.log.warn({ err: err.message }, "the demo's agent stopped with an error"));
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return { logsDir, liveLog, caughtUp, stop };
}

/** Every 30 s of the live clock: the game's log lines that are due, the second server's report. A failed round is logged; the next one comes. */
async function tick(deps: Deps, clock: AgentClock, signal: AbortSignal, log: LiveLog, mod: ServerMod): Promise<void> {
  while (!signal.aborted) {
    await clock.sleep(heartbeatEveryMs, signal);
    if (signal.aborted) return;
    await log
      .due(clock.now())
      .then(() => mod.report())
      .catch((err: Error) => deps.log.warn({ err: err.message }, 'a round of the live demo failed; the next one comes in 30 s'));
  }
}

/** The first server's game writing its admin log: a PlayerList every 5 minutes, with a kill between two of its players. */
class LiveLog {
  private listedMs: number;
  private kills = 0;

  constructor(
    private readonly path: string,
    private readonly online: LogPerson[],
    startMs: number,
  ) {
    this.listedMs = startMs;
  }

  async due(nowMs: number): Promise<void> {
    if (nowMs - this.listedMs < playerListEveryMs) return;
    this.listedMs = nowMs;
    const i = this.kills++;
    const killer = this.online[i % this.online.length]!;
    const victim = this.online[(i + 1 + (i % (this.online.length - 1))) % this.online.length]!;
    const weapon = demoFixture.weapons[i % demoFixture.weapons.length]!;
    const distance = (20 + ((i * 53) % 300) + 0.5).toFixed(4);
    await appendFile(
      this.path,
      killLines(killer, victim, nowMs - 60_000, i, weapon, i % 3 === 0 ? 'Head' : 'Torso', distance) + playerListLines(this.online, nowMs),
    );
  }
}

/** The second server's mod: its players join when the demo starts, are reported every 30 s, and leave when it stops. */
class ServerMod {
  private readonly uptimeFromMs: number;

  constructor(
    private readonly deps: Deps,
    private readonly serverId: string,
    private readonly online: { platformId: string; name: string }[],
    private readonly clock: AgentClock,
  ) {
    this.uptimeFromMs = clock.now() - 3 * 3600_000;
  }

  private send(events: Record<string, unknown>[]) {
    return ingestBatch(this.deps, this.serverId, { events });
  }

  private players(type: 'player.connect' | 'player.heartbeat' | 'player.disconnect', ts: number) {
    return this.online.map((p) => ({ id: randomUUID(), type, ts, ...p }));
  }

  private status(ts: number, players: number) {
    const fps = Math.round((57 - players * 0.3 + (Math.floor(ts / heartbeatEveryMs) % 4)) * 10) / 10;
    return {
      id: randomUUID(),
      type: 'server.status',
      ts,
      online: true,
      players,
      fps,
      uptimeSeconds: Math.floor((ts - this.uptimeFromMs) / 1000),
    };
  }

  async connect(): Promise<void> {
    const now = this.clock.now();
    await this.send([...this.players('player.connect', now), this.status(now, this.online.length)]);
  }

  async report(): Promise<void> {
    const now = this.clock.now();
    await this.send([...this.players('player.heartbeat', now), this.status(now, this.online.length)]);
  }

  async disconnect(): Promise<void> {
    const now = this.clock.now();
    await this.send([...this.players('player.disconnect', now), this.status(now, 0)]);
  }
}
