// Keeps the service's view of who is online true between the admin log's PlayerList blocks (every
// 300 s, while the service's windows are 90 s for a player and 120 s for the server): every 30 s the
// agent sends a heartbeat for each player on the server and the server's status. With RCon, the
// player list is RCon's `players` (each player under the id the admin log gives that name; a player
// the log has not named yet is counted, not listed); without it, the players the log says are
// connected, and only while its newest PlayerList is at most 330 s old. A server whose RCon was
// lost, or whose log went quiet, is said to be offline once.
import { randomUUID } from 'node:crypto';
import type { WireEvent } from '../ingest/events.ts';
import type { GameRcon } from './game-rcon.ts';
import type { LogPlayers } from './log-players.ts';
import { playerName } from './adm-reader.ts';

export const presenceIntervalMs = 30_000;
/** The newest PlayerList may be this old for the log's players to count as online. */
export const playerListMaxAgeMs = 330_000;

/**
 * What to send every 30 s: heartbeats and an online status while the server is known to be live;
 * once it no longer is (RCon lost, or the log's PlayerList over 330 s old), one offline status, so
 * the server reads offline at once rather than when its last status grows stale.
 */
export class Presence {
  private announced = false;

  async events(rcon: GameRcon | undefined, log: LogPlayers, nowMs: number): Promise<WireEvent[]> {
    // RCon that never logged in (not up yet, or misconfigured) leaves the log to tell who is on.
    const players = rcon?.everLoggedIn ? (rcon.connected ? await rconPlayers(rcon, log) : undefined) : logPlayers(log, nowMs);
    if (!players) {
      if (!this.announced) return [];
      this.announced = false;
      return [{ id: randomUUID(), type: 'server.status', ts: nowMs, online: false, players: 0 }];
    }
    this.announced = true;
    return [
      ...players.listed.map(([platformId, name]): WireEvent => ({
        id: randomUUID(),
        type: 'player.heartbeat',
        ts: nowMs,
        platformId,
        name,
      })),
      { id: randomUUID(), type: 'server.status', ts: nowMs, online: true, players: players.count },
    ];
  }
}

type Present = { listed: [platformId: string, name: string][]; count: number };

async function rconPlayers(rcon: GameRcon, log: LogPlayers): Promise<Present | undefined> {
  const players = await rcon.players().catch(() => undefined);
  if (!players) return undefined;
  const listed: [string, string][] = [];
  for (const p of players) {
    const name = playerName(p.name);
    const id = log.idOf(name);
    if (id !== undefined) listed.push([id, name]);
  }
  return { listed, count: players.length };
}

function logPlayers(log: LogPlayers, nowMs: number): Present | undefined {
  if (log.listedAtMs === null || nowMs - log.listedAtMs > playerListMaxAgeMs) return undefined;
  return { listed: [...log.connected], count: log.connected.size };
}
