// The demo's DayZ admin logs, in the real .ADM format. The committed ones (fixtures/demo-logs/, a
// test keeps them equal to what demoLogs writes from the demo fixture) are a day of the past,
// 2026-01-01 UTC, and the demo feeds them exactly as they are, so an agent pointed at that folder
// sends the very events the demo sent (same ids, same times) and counts nothing twice. Their
// players' sessions (connect to disconnect) are told by demoLogSessions. The live log the demo
// writes while it runs (src/demo/live.ts) uses the lines below. Players appear by their DayZ IDs,
// as a PC server logs them.
import { dayzIdOf } from '../identities/id-forms.ts';

export interface DemoLogFixture {
  players: { platformId: string; name: string }[];
  /** Players only the log knows: their Steam64 is never told to the service, so they stay DayZ IDs. */
  logOnlyPlayers: { steam64: string; name: string }[];
  weapons: string[];
  hitZones: (string | null)[];
  onlinePlayers: number;
  kills: number;
}

/** A player as the log names them. */
export interface LogPerson {
  id: string;
  name: string;
}

/** One stay on the server, as the log tells it: from its connect line to its disconnect line (epoch ms, UTC). */
export interface LogSession {
  player: LogPerson;
  fromMs: number;
  toMs: number;
}

export const historyFile = 'DayZServer_x64_history.ADM';
export const sessionFile = 'DayZServer_x64_session.ADM';
/** The committed logs' day (UTC; feed them with --utc-offset +00:00). */
export const templateDay = '2026-01-01';
const stars = '******************************************************************************';
const historyStartS = 6 * 3600;
/** Everyone leaves a minute before the server restarts for the session log. */
const historyEndS = 12 * 3600 - 60;
const sessionStartS = 12 * 3600;
const sessionEndS = sessionStartS + 40 * 60;

const hms = (s: number) => [Math.floor(s / 3600) % 24, Math.floor(s / 60) % 60, s % 60].map((x) => String(x).padStart(2, '0')).join(':');
const dayMs = (date: string) => Date.parse(`${date}T00:00:00Z`);

/** A log's header: a server (re)start at `ms` (UTC). */
export function logHeader(ms: number): string {
  const iso = new Date(ms).toISOString();
  return `\n\n${stars}\nAdminLog started on ${iso.slice(0, 10)} at ${iso.slice(11, 19)}\n`;
}

const at = (ms: number) => `${new Date(ms).toISOString().slice(11, 19)} | `;
const position = (i: number, k: number) =>
  `${(4000 + ((i * 131 + k * 17) % 9000)).toFixed(1)}, ${(3000 + ((i * 97 + k * 29) % 9000)).toFixed(1)}, ${(100 + (i % 50)).toFixed(1)}`;
const prefix = (p: LogPerson, i: number, k: number, dead = false) =>
  `Player "${p.name}"${dead ? ' (DEAD)' : ''} (id=${p.id} pos=<${position(i, k)}>)`;

export const connectLine = (p: LogPerson, ms: number) => `${at(ms)}Player "${p.name}" is connected (id=${p.id})\n`;
export const disconnectLine = (p: LogPerson, ms: number) => `${at(ms)}Player "${p.name}"(id=${p.id}) has been disconnected\n`;

/** A PlayerList block: DayZ writes one every 5 minutes, naming everyone on the server. */
export function playerListLines(people: LogPerson[], ms: number): string {
  let text = `${at(ms)}##### PlayerList log: ${people.length} players\n`;
  for (const [k, p] of people.entries()) text += `${at(ms)}${prefix(p, k, Math.floor(ms / 1000) % 997)}\n`;
  return `${text}${at(ms)}#####\n`;
}

/** A kill by a firearm: the victim's hit, then its death, as DayZ logs them. */
export function killLines(
  killer: LogPerson,
  victim: LogPerson,
  ms: number,
  i: number,
  weapon: string,
  zone: string,
  distance: string,
): string {
  return (
    `${at(ms)}${prefix(victim, i, 1)}[HP: 0] hit by ${prefix(killer, i, 3)} into ${zone}(0) for 35.5 damage (Bullet_762x39) with ${weapon} from ${distance} meters \n` +
    `${at(ms)}${prefix(victim, i, 1, true)} killed by ${prefix(killer, i, 3)} with ${weapon} from ${distance} meters \n`
  );
}

/** Everyone of the fixture as the log names them: its players, then the log-only ones. */
export function logPeople(f: Pick<DemoLogFixture, 'players' | 'logOnlyPlayers'>): LogPerson[] {
  return [
    ...f.players.map((p) => ({ id: dayzIdOf(p.platformId), name: p.name })),
    ...f.logOnlyPlayers.map((p) => ({ id: dayzIdOf(p.steam64), name: p.name })),
  ];
}

/** The sessions the two logs tell: everyone through the history, the online ones through the session log. */
export function demoLogSessions(f: DemoLogFixture): LogSession[] {
  const base = dayMs(templateDay);
  const people = logPeople(f);
  return [
    ...people.map((player, k) => ({ player, fromMs: base + (historyStartS + 5 + k) * 1000, toMs: base + (historyEndS + k) * 1000 })),
    ...people
      .slice(0, f.onlinePlayers)
      .map((player, k) => ({ player, fromMs: base + (sessionStartS + 10 + k) * 1000, toMs: base + (sessionEndS + k) * 1000 })),
  ];
}

export function demoLogs(f: DemoLogFixture): { history: string; session: string } {
  const base = dayMs(templateDay);
  const ms = (s: number) => base + s * 1000;
  const people = logPeople(f);
  const [historySessions, onlineSessions] = [demoLogSessions(f).slice(0, people.length), demoLogSessions(f).slice(people.length)];
  let history = logHeader(ms(historyStartS));
  for (const s of historySessions) history += connectLine(s.player, s.fromMs);
  const every = Math.floor((6 * 3600 - 120) / f.kills);
  for (let i = 0; i < f.kills; i++) {
    const t = historyStartS + 60 + i * every;
    const killer = people[(i * 5 + 3) % people.length]!;
    let victim = people[(i * 3 + 1) % people.length]!;
    if (victim === killer) victim = people[(i + 1) % people.length]!;
    const weapon = f.weapons[i % f.weapons.length]!;
    const zone = i % 4 === 0 ? 'Head' : (f.hitZones[i % f.hitZones.length] ?? 'Torso');
    if (i % 9 === 4) {
      // A melee kill: no distance on the line, the agent measures it between the two positions.
      history += `${hms(t)} | ${prefix(victim, i, 1)}[HP: 12.5] hit by ${prefix(killer, i, 2)} into ${zone}(0) for 14 damage (MeleeSharpLight_2) with Топорик\n`;
      history += `${hms(t + 1)} | ${prefix(victim, i, 1, true)} killed by ${prefix(killer, i, 2)} with Топорик\n`;
    } else {
      history += killLines(killer, victim, ms(t), i, weapon, zone, (5 + ((i * 37) % 400) + (i % 10) / 10).toFixed(4));
    }
    if (i % 10 === 7) {
      const unlucky = people[(i * 3) % people.length]!;
      history += `${hms(t + 20)} | ${prefix(unlucky, i, 4)}[HP: 40.2] hit by Зараженный into RightLeg(3) for 6.8 damage (MeleeInfected)\n`;
      history += `${hms(t + 21)} | ${prefix(unlucky, i, 4, true)} killed by ZmbM_PatrolNormal_Autumn\n`;
    }
    if (i % 25 === 12) history += `${hms(t + 30)} | Chat("${killer.name}"(id=${killer.id})): gg\n`;
  }
  for (const s of historySessions) history += disconnectLine(s.player, s.toMs);
  let session = logHeader(ms(sessionStartS));
  const online = onlineSessions.map((s) => s.player);
  for (const s of onlineSessions) session += connectLine(s.player, s.fromMs);
  session += `${hms(sessionStartS + 40)} | ${prefix(online[0]!, 0, 5)}[HP: 84.6] hit by FallDamageHealth\n`;
  for (const minute of [5, 10, 15, 20, 25, 30, 35]) session += playerListLines(online, ms(sessionStartS + minute * 60));
  for (const s of onlineSessions) session += disconnectLine(s.player, s.toMs);
  return { history, session };
}
