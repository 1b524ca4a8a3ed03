// Loads fixtures/demo.json: a demo community with two servers and a few bans, with an API key and
// ingest tokens. The first server is fed the way a real DayZ server is: the agent reads its admin
// logs (fixtures/demo-logs/, re-timed to now) and pushes them over HTTP; the second through JSON
// events. Loading twice adds nothing twice: event and ban ids are fixed, only the players'
// presence is renewed, and the credentials of the first run are shown again (src/demo/credentials.ts).
import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../app.ts';
import { Agent } from '../agent/agent.ts';
import { agentDefaults } from '../agent/options.ts';
import type { AgentReport } from '../agent/agent.ts';
import { demoLogs, historyFile, retime, sessionFile, templateNewestMs } from './demo-log.ts';
import type { DemoLogFixture } from './demo-log.ts';
import type { Deps } from '../deps.ts';
import { insertAccount } from '../accounts/account.repo.ts';
import { insertBan } from '../bans/ban.repo.ts';
import { syncGameFiles } from '../game-files/sync.ts';
import { ingestBatch } from '../ingest/ingest.ts';
import { registerServer } from '../servers/server.ts';
import { findServerRecord } from '../servers/server.repo.ts';
import { defaultCredentialsFile, demoCredentials } from './credentials.ts';
import { demoAdmin, demoPoolEntry } from './admin.ts';
import type { DemoAdmin } from './admin.ts';
import { findUserForLogin } from '../users/user.repo.ts';
import { projectPath } from '../project-root.ts';

interface DemoFixture {
  account: { id: string; name: string };
  servers: { id: string; name: string; map: string; gameVersion: string; kills: number }[];
  players: { platformId: string; name: string }[];
  logOnlyPlayers: DemoLogFixture['logOnlyPlayers'];
  weapons: string[];
  hitZones: (string | null)[];
  onlinePlayers: number;
  bans: {
    id: string;
    platformId: string;
    playerName: string | null;
    reason: string;
    source: 'manual' | 'import';
    expiresInDays: number | null;
  }[];
}

export interface DemoData {
  accountId: string;
  apiKey: string;
  servers: { id: string; name: string; ingestToken: string }[];
  /** What the agent read and sent for the first server. */
  agent: AgentReport;
  /** The dashboard sign-in. */
  admin: DemoAdmin;
  /** A player whose ban is an approved pool entry: the public player page shows why. */
  poolPlayer: string;
}

const fixture = JSON.parse(readFileSync(projectPath('fixtures', 'demo.json'), 'utf8')) as DemoFixture;
const logsDir = projectPath('fixtures', 'demo-logs');

/** The demo logs' template, as fixture and generator define it (a test keeps the files equal to it). */
export const demoLogTemplate = () => demoLogs({ ...fixture, kills: fixture.servers[0]!.kills });

/** A stable UUID for a name, so a re-loaded event is recognised as a duplicate. */
function stableUuid(name: string): string {
  const h = createHash('sha256').update(name).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** A server's history of kills, timed from the demo account's creation, and its players online now. */
function serverEvents(server: DemoFixture['servers'][number], firstRunMs: number, nowMs: number): Record<string, unknown>[] {
  const { players, weapons, hitZones } = fixture;
  const events: Record<string, unknown>[] = [];
  for (let i = 0; i < server.kills; i++) {
    // A fixed pseudo-random pattern: every reload produces the same history.
    const killer = players[(i * 7 + 3) % players.length]!;
    let victim = players[(i * 5 + 1) % players.length]!;
    if (victim === killer) victim = players[(i + 1) % players.length]!;
    events.push({
      id: stableUuid(`${server.id}:kill:${i}`),
      type: 'kill',
      ts: firstRunMs - (server.kills - i) * 9 * 60_000,
      killer,
      victim,
      weapon: weapons[i % weapons.length],
      distance: 5 + ((i * 37) % 400) + (i % 10) / 10,
      isHeadshot: i % 4 === 0,
      ...(hitZones[i % hitZones.length] ? { hitZone: hitZones[i % hitZones.length] } : {}),
    });
  }
  for (const [i, player] of players.slice(0, fixture.onlinePlayers).entries()) {
    events.push({ id: randomUUID(), type: 'player.connect', ts: nowMs - 45 * 60_000 - i * 60_000, ...player });
    for (let m = 40; m >= 0; m -= 1)
      events.push({
        id: randomUUID(),
        type: 'player.heartbeat',
        ts: nowMs - m * 60_000 - 30_000 + i * 1000,
        ...player,
        x: 4512.3,
        y: 310.2,
        z: 9811.7,
      });
  }
  events.push({
    id: randomUUID(),
    type: 'server.status',
    ts: nowMs,
    online: true,
    map: server.map,
    gameVersion: server.gameVersion,
    players: fixture.onlinePlayers,
    fps: 58.5,
    uptimeSeconds: 3 * 3600,
  });
  return events;
}

const statusSlotMs = 10 * 60_000;

/**
 * A day of status samples, one per 10 minutes of the wall clock up to `untilMs`, as a server mod
 * would send them (the chart of the dashboard's server page); fixed ids per slot, so a re-run
 * adds only the new slots. Players follow the day (most in the evening, UTC), fps dips with them.
 */
function statusHistory(server: DemoFixture['servers'][number], nowMs: number, untilMs: number): Record<string, unknown>[] {
  const events: Record<string, unknown>[] = [];
  for (let slot = Math.ceil((nowMs - 24 * 3600_000) / statusSlotMs); slot * statusSlotMs < untilMs; slot++) {
    const ts = slot * statusSlotMs;
    const hour = (ts % 86_400_000) / 3600_000;
    const players = Math.max(0, Math.round(22 + 18 * Math.sin(((hour - 13) / 24) * 2 * Math.PI) + ((slot * 7) % 5) - 2));
    events.push({
      id: stableUuid(`${server.id}:status:${slot}`),
      type: 'server.status',
      ts,
      online: true,
      map: server.map,
      gameVersion: server.gameVersion,
      players,
      fps: Math.round((58 - players * 0.35 + ((slot * 3) % 4)) * 10) / 10,
      uptimeSeconds: (ts / 1000) % (6 * 3600),
    });
  }
  return events;
}

export async function loadDemo(deps: Deps, credentialsFile?: string): Promise<DemoData> {
  const nowMs = deps.clock.now();
  const account = await insertAccount(deps.db, fixture.account.name, fixture.account.id, new Date(nowMs).toISOString());
  // The demo's history (kills, its log) is timed from the demo account's creation, so every run on
  // this database sends the same events again, which the service counts once.
  const firstRunMs = Date.parse(account.createdAt);
  const servers: DemoData['servers'] = [];
  for (const s of fixture.servers) {
    const existing = await findServerRecord(deps.db, s.id);
    // A server made by an earlier run keeps its token; a new one gets its token here.
    const created = existing && !existing.revoked ? undefined : await registerServer(deps, account.id, { id: s.id, name: s.name });
    servers.push({ id: s.id, name: s.name, ingestToken: created?.ingestToken ?? '' });
  }
  const credentials = await demoCredentials(
    deps,
    account.id,
    servers.map((s) => ({ id: s.id, ingestToken: s.ingestToken || undefined })),
    credentialsFile,
  );
  for (const server of servers) server.ingestToken = credentials.ingestTokens[server.id]!;
  // JSON events first: their Steam64s are then known, and the DayZ IDs in the logs resolve to them.
  for (const s of fixture.servers.slice(1)) {
    const events = [...statusHistory(s, nowMs, nowMs), ...serverEvents(s, firstRunMs, nowMs)];
    for (let i = 0; i < events.length; i += 500) await ingestBatch(deps, s.id, { events: events.slice(i, i + 500) });
  }
  const logged = fixture.servers[0]!;
  // The log-fed server's day before its log: its agent reports players every 5 minutes from then on.
  const history = statusHistory(logged, nowMs, nowMs - 3600_000);
  for (let i = 0; i < history.length; i += 500) await ingestBatch(deps, logged.id, { events: history.slice(i, i + 500) });
  // The log names no map or game version: the server's metadata comes as one status event.
  await ingestBatch(deps, logged.id, {
    events: [
      {
        id: stableUuid(`${logged.id}:metadata`),
        type: 'server.status',
        ts: firstRunMs - 6 * 3600_000,
        online: true,
        map: logged.map,
        gameVersion: logged.gameVersion,
      },
    ],
  });
  const agent = await feedThroughAgent(deps, logged.id, servers[0]!.ingestToken, firstRunMs, nowMs);
  for (const ban of fixture.bans) {
    const expiresAt = ban.expiresInDays === null ? null : new Date(nowMs + ban.expiresInDays * 86_400_000).toISOString();
    const bannedAt = new Date(nowMs - 10 * 86_400_000).toISOString();
    await insertBan(deps.db, account.id, { ...ban, bannedAt, expiresAt });
  }
  // The servers have no file paths (their hosts would pull the file): the sync records what each holds.
  // The worker, started before the demo loads, may be syncing the same file (its start-up job):
  // the sync tries such an overlap again itself.
  const { failed } = await syncGameFiles(
    deps,
    servers.map((s) => ({ serverId: s.id, kind: 'bans' as const })),
  );
  if (failed.length > 0) throw new Error(`demo ban files not synced: ${JSON.stringify(failed)}`);
  const admin = await demoAdmin(deps, account.id, credentialsFile ?? defaultCredentialsFile);
  const pooled = fixture.bans[0]!;
  const submitter = admin.username ? await findUserForLogin(deps.db, admin.username) : undefined;
  if (submitter) await demoPoolEntry(deps, account.id, submitter.id, pooled.id);
  return { accountId: account.id, apiKey: credentials.apiKey, servers, agent, admin, poolPlayer: pooled.platformId };
}

/**
 * Runs the agent (--once) over the demo logs against the service on a port of its own. The session
 * file is re-timed so its newest line is 10 s before now, and named by the run, so presence is
 * renewed; the history file keeps its name and the times of the first run (its events are the same
 * again: a re-run counts nothing twice).
 */
async function feedThroughAgent(deps: Deps, serverId: string, token: string, firstRunMs: number, nowMs: number): Promise<AgentReport> {
  const history = readFileSync(join(logsDir, historyFile), 'utf8');
  const session = readFileSync(join(logsDir, sessionFile), 'utf8');
  const shiftMs = (untilMs: number) => untilMs - 10_000 - templateNewestMs(session);
  const dir = await mkdtemp(join(tmpdir(), 'gameservice-demo-'));
  const server = createApp(deps).listen(0, '127.0.0.1');
  try {
    await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
    await writeFile(join(dir, historyFile), retime(history, shiftMs(firstRunMs)));
    await writeFile(join(dir, sessionFile.replace('.ADM', `_${nowMs}.ADM`)), retime(session, shiftMs(nowMs)));
    const agent = new Agent({
      ...agentDefaults,
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      serverId,
      token,
      logs: dir,
      state: join(dir, 'agent-state.json'),
      utcOffsetMinutes: 0,
      once: true,
      log: deps.log,
    });
    return await agent.run(new AbortController().signal);
  } finally {
    server.close();
    await rm(dir, { recursive: true, force: true });
  }
}
