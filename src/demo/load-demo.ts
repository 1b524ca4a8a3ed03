// Loads fixtures/demo.json: a demo community with two servers and a few bans, with an API key,
// ingest tokens, a partner key, a chat bot with a moderator mapped, and an approved pool entry. The
// first server is fed the way a real DayZ server is: its agent reads its admin logs (the committed
// fixtures/demo-logs/, as they are, then the live log the demo writes while it runs: src/demo/live.ts)
// and pushes them over HTTP; the second through JSON events. Loading twice adds nothing twice: event
// and ban ids are fixed, and the credentials of the first run are shown again (credentials.ts).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { demoLogSessions, demoLogs } from './demo-log.ts';
import type { DemoLogFixture } from './demo-log.ts';
import type { Deps } from '../deps.ts';
import { insertAccount } from '../accounts/account.repo.ts';
import { insertBan } from '../bans/ban.repo.ts';
import { syncGameFiles } from '../game-files/sync.ts';
import { ingestBatch } from '../ingest/ingest.ts';
import { killsBefore } from '../data-api/kills.repo.ts';
import { registerServer } from '../servers/server.ts';
import { findServerRecord } from '../servers/server.repo.ts';
import { defaultCredentialsFile, demoCredentials } from './credentials.ts';
import { demoAdmin, demoChatBot, demoPoolEntry } from './admin.ts';
import type { DemoAdmin, DemoChatBot } from './admin.ts';
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
  /** The export feed's key, for the reference mirror (npm run cli -- trust mirror). */
  partnerKey: string;
  servers: { id: string; name: string; ingestToken: string }[];
  /** The dashboard sign-in. */
  admin: DemoAdmin;
  /** The community's chat bot, with a chat user mapped to moderator. */
  chatBot: DemoChatBot;
  /** A player whose ban is an approved pool entry: the public player page shows why. */
  poolPlayer: string;
  /** The players online while the demo runs (the first `onlinePlayers` of the fixture). */
  online: { platformId: string; name: string }[];
  /**
   * The first server holds an earlier demo's log history, re-timed to just before the first run (the
   * committed logs are now fed as they are, on their own day): those kills count twice here.
   */
  earlierLogHistory: boolean;
}

export const demoFixture = JSON.parse(readFileSync(projectPath('fixtures', 'demo.json'), 'utf8')) as DemoFixture;
const fixture = demoFixture;
/** The committed admin logs of the first server, fed as they are. */
export const demoLogsDir = projectPath('fixtures', 'demo-logs');
export const demoLogFixture: DemoLogFixture = { ...fixture, kills: fixture.servers[0]!.kills };

/** The demo logs' template, as fixture and generator define it (a test keeps the files equal to it). */
export const demoLogTemplate = () => demoLogs(demoLogFixture);

/** A stable UUID for a name, so a re-loaded event is recognised as a duplicate. */
function stableUuid(name: string): string {
  const h = createHash('sha256').update(name).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** A server's history of kills and of its players' sessions, timed from the demo account's creation, and its status now. */
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
  events.push(...sessionEvents(server.id, firstRunMs));
  events.push({
    id: stableUuid(`${server.id}:status:now:${nowMs}`),
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

/**
 * Each player's stay on a JSON-fed server the day before the first run, as its server mod sends it:
 * a connect, a heartbeat a minute (closer than the online window, so the stay is play time), a
 * disconnect. Fixed ids: a re-run sends the same stays again, counted once.
 */
function sessionEvents(serverId: string, firstRunMs: number): Record<string, unknown>[] {
  const events: Record<string, unknown>[] = [];
  for (const [i, player] of fixture.players.entries()) {
    const fromMs = firstRunMs - 20 * 3600_000 + i * 20 * 60_000;
    const toMs = fromMs + 2 * 3600_000 + (i % 4) * 45 * 60_000;
    const event = (type: string, ts: number) => ({ id: stableUuid(`${serverId}:${type}:${player.platformId}:${ts}`), type, ts, ...player });
    events.push(event('player.connect', fromMs));
    for (let ts = fromMs + 60_000; ts < toMs; ts += 60_000) events.push(event('player.heartbeat', ts));
    events.push(event('player.disconnect', toMs));
  }
  return events;
}

/**
 * What the first server's agent sent, with RCon, while the committed logs' players were on (their
 * connect and disconnect lines come from the logs themselves): a heartbeat a minute, closer than the
 * online window, and the last one as they left, so each session is play time. Fed before the logs,
 * as it arrived while they were written (a presence older than the newest one stored changes nothing).
 */
function logPresence(serverId: string): Record<string, unknown>[] {
  const events: Record<string, unknown>[] = [];
  for (const { player, fromMs, toMs } of demoLogSessions(demoLogFixture))
    for (let ts = fromMs + 60_000; ts < toMs + 60_000; ts += 60_000)
      events.push({
        id: stableUuid(`${serverId}:presence:${player.id}:${ts}`),
        type: 'player.heartbeat',
        ts: Math.min(ts, toMs),
        platformId: player.id,
        name: player.name,
      });
  return events;
}

const statusSlotMs = 10 * 60_000;

/**
 * The day before the demo's first run in status samples, one per 10 minutes of the wall clock, as a
 * server mod would send them (the chart of the dashboard's server page); from then on the demo's
 * live reports are the samples, so a later run adds none (fixed ids per slot) and none land between
 * the live ones. Players follow the day (most in the evening, UTC), fps dips with them.
 */
function statusHistory(server: DemoFixture['servers'][number], firstRunMs: number): Record<string, unknown>[] {
  const events: Record<string, unknown>[] = [];
  for (let slot = Math.ceil((firstRunMs - 24 * 3600_000) / statusSlotMs); slot * statusSlotMs < firstRunMs; slot++) {
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

async function ingestAll(deps: Deps, serverId: string, events: Record<string, unknown>[]): Promise<void> {
  for (let i = 0; i < events.length; i += 500) await ingestBatch(deps, serverId, { events: events.slice(i, i + 500) });
}

export async function loadDemo(deps: Deps, credentialsFile = defaultCredentialsFile): Promise<DemoData> {
  const nowMs = deps.clock.now();
  const account = await insertAccount(deps.db, fixture.account.name, fixture.account.id, new Date(nowMs).toISOString());
  // The JSON-fed server's history is timed from the demo account's creation, so every run on this
  // database sends the same events again, which the service counts once.
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
  for (const s of fixture.servers.slice(1))
    await ingestAll(deps, s.id, [...statusHistory(s, firstRunMs), ...serverEvents(s, firstRunMs, nowMs)]);
  const logged = fixture.servers[0]!;
  const [newestBefore] = await killsBefore(deps.db, logged.id, new Date(firstRunMs).toISOString(), 1);
  const earlierLogHistory = newestBefore !== undefined && Date.parse(newestBefore.ts) > firstRunMs - 7 * 3600_000;
  // The log names no map or game version: the server's metadata comes as one status event.
  const metadata = {
    id: stableUuid(`${logged.id}:metadata`),
    type: 'server.status',
    ts: firstRunMs - 6 * 3600_000,
    online: true,
    map: logged.map,
    gameVersion: logged.gameVersion,
  };
  await ingestAll(deps, logged.id, [...statusHistory(logged, firstRunMs), metadata, ...logPresence(logged.id)]);
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
  const admin = await demoAdmin(deps, account.id, credentialsFile);
  const pooled = fixture.bans[0]!;
  const submitter = admin.username ? await findUserForLogin(deps.db, admin.username) : undefined;
  if (submitter) await demoPoolEntry(deps, account.id, submitter.id, pooled.id);
  return {
    accountId: account.id,
    apiKey: credentials.apiKey,
    partnerKey: credentials.partnerKey,
    servers,
    admin,
    chatBot: await demoChatBot(deps, account.id),
    poolPlayer: pooled.platformId,
    online: fixture.players.slice(0, fixture.onlinePlayers),
    earlierLogHistory,
  };
}
