// Loads fixtures/demo.json: a demo community with two servers, their events (fed through the
// real ingestion path), and a few bans; then mints a fresh API key. Loading twice adds nothing
// twice: event and ban ids are fixed, only the players' presence is renewed.
import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Deps } from '../deps.ts';
import { insertAccount } from '../accounts/account.repo.ts';
import { mintApiKey } from '../accounts/api-key.ts';
import { insertBan, recordBanSync } from '../bans/ban.repo.ts';
import { ingestBatch } from '../ingest/ingest.ts';
import { registerServer } from '../servers/server.ts';

interface DemoFixture {
  account: { id: string; name: string };
  servers: { id: string; name: string; map: string; gameVersion: string; kills: number }[];
  players: { platformId: string; name: string }[];
  weapons: string[];
  hitZones: (string | null)[];
  onlinePlayers: number;
  bans: { id: string; platformId: string; playerName: string | null; reason: string; source: 'manual' | 'import'; expiresInDays: number | null }[];
}

export interface DemoData {
  accountId: string;
  apiKey: string;
  servers: { id: string; name: string; ingestToken: string }[];
}

const fixture = JSON.parse(readFileSync(new URL('../../fixtures/demo.json', import.meta.url), 'utf8')) as DemoFixture;

/** A stable UUID for a name, so a re-loaded event is recognised as a duplicate. */
function stableUuid(name: string): string {
  const h = createHash('sha256').update(name).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

function serverEvents(server: DemoFixture['servers'][number], nowMs: number): Record<string, unknown>[] {
  const { players, weapons, hitZones } = fixture;
  const events: Record<string, unknown>[] = [];
  for (let i = 0; i < server.kills; i++) {
    // A fixed pseudo-random pattern: every reload produces the same history.
    const killer = players[(i * 7 + 3) % players.length]!;
    let victim = players[(i * 5 + 1) % players.length]!;
    if (victim === killer) victim = players[(i + 1) % players.length]!;
    events.push({
      id: stableUuid(`${server.id}:kill:${i}`), type: 'kill', ts: nowMs - (server.kills - i) * 9 * 60_000,
      killer, victim, weapon: weapons[i % weapons.length], distance: 5 + ((i * 37) % 400) + (i % 10) / 10,
      isHeadshot: i % 4 === 0, ...(hitZones[i % hitZones.length] ? { hitZone: hitZones[i % hitZones.length] } : {}),
    });
  }
  for (const [i, player] of players.slice(0, fixture.onlinePlayers).entries()) {
    events.push({ id: randomUUID(), type: 'player.connect', ts: nowMs - 45 * 60_000 - i * 60_000, ...player });
    for (let m = 40; m >= 0; m -= 1) events.push({ id: randomUUID(), type: 'player.heartbeat', ts: nowMs - m * 60_000 - 30_000 + i * 1000, ...player, x: 4512.3, y: 310.2, z: 9811.7 });
  }
  events.push({ id: randomUUID(), type: 'server.status', ts: nowMs, online: true, map: server.map, gameVersion: server.gameVersion, players: fixture.onlinePlayers, fps: 58.5, uptimeSeconds: 3 * 3600 });
  return events;
}

export async function loadDemo(deps: Deps): Promise<DemoData> {
  const nowMs = deps.clock.now();
  const account = await insertAccount(deps.db, fixture.account.name, fixture.account.id);
  const servers: DemoData['servers'] = [];
  for (const s of fixture.servers) {
    const { server, ingestToken } = await registerServer(deps, account.id, { id: s.id, name: s.name });
    const events = serverEvents(s, nowMs);
    for (let i = 0; i < events.length; i += 500) await ingestBatch(deps, server.id, { events: events.slice(i, i + 500) });
    servers.push({ id: server.id, name: server.name, ingestToken });
  }
  for (const ban of fixture.bans) {
    const expiresAt = ban.expiresInDays === null ? null : new Date(nowMs + ban.expiresInDays * 86_400_000).toISOString();
    const bannedAt = new Date(nowMs - 10 * 86_400_000).toISOString();
    const banId = await insertBan(deps.db, account.id, { ...ban, bannedAt, expiresAt });
    for (const s of servers) await recordBanSync(deps.db, s.id, banId, new Date(nowMs).toISOString());
  }
  const { key } = await mintApiKey(deps, account.id, 'demo', 'standard');
  return { accountId: account.id, apiKey: key, servers };
}
