// The demo's DayZ admin logs: written deterministically in the real .ADM format from the demo
// fixture (fixtures/demo-logs/ holds the output; a test keeps the two the same), and re-timed at
// load so that the newest line is just before "now" and the players show online. Players appear
// by their DayZ IDs, as a PC server logs them.
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

export const historyFile = 'DayZServer_x64_history.ADM';
export const sessionFile = 'DayZServer_x64_session.ADM';
/** The template's day; re-timing moves it. */
const templateDay = '2026-01-01';
const stars = '******************************************************************************';

const hms = (s: number) => [Math.floor(s / 3600) % 24, Math.floor(s / 60) % 60, s % 60].map((x) => String(x).padStart(2, '0')).join(':');
const header = (seconds: number) => `\n\n${stars}\nAdminLog started on ${templateDay} at ${hms(seconds)}\n`;

export function demoLogs(f: DemoLogFixture): { history: string; session: string } {
  const people = [
    ...f.players.map((p) => ({ id: dayzIdOf(p.platformId), name: p.name })),
    ...f.logOnlyPlayers.map((p) => ({ id: dayzIdOf(p.steam64), name: p.name })),
  ];
  const pos = (i: number, k: number) =>
    `${(4000 + ((i * 131 + k * 17) % 9000)).toFixed(1)}, ${(3000 + ((i * 97 + k * 29) % 9000)).toFixed(1)}, ${(100 + (i % 50)).toFixed(1)}`;
  const prefix = (p: { id: string; name: string }, i: number, k: number, dead = false) =>
    `Player "${p.name}"${dead ? ' (DEAD)' : ''} (id=${p.id} pos=<${pos(i, k)}>)`;
  const start = 6 * 3600;
  let history = header(start);
  for (const [k, p] of people.entries()) history += `${hms(start + 5 + k)} | Player "${p.name}" is connected (id=${p.id})\n`;
  const every = Math.floor((6 * 3600 - 120) / f.kills);
  for (let i = 0; i < f.kills; i++) {
    const t = start + 60 + i * every;
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
      const distance = (5 + ((i * 37) % 400) + (i % 10) / 10).toFixed(4);
      history += `${hms(t)} | ${prefix(victim, i, 1)}[HP: 0] hit by ${prefix(killer, i, 3)} into ${zone}(0) for 35.5 damage (Bullet_762x39) with ${weapon} from ${distance} meters \n`;
      history += `${hms(t)} | ${prefix(victim, i, 1, true)} killed by ${prefix(killer, i, 3)} with ${weapon} from ${distance} meters \n`;
    }
    if (i % 10 === 7) {
      const unlucky = people[(i * 3) % people.length]!;
      history += `${hms(t + 20)} | ${prefix(unlucky, i, 4)}[HP: 40.2] hit by Зараженный into RightLeg(3) for 6.8 damage (MeleeInfected)\n`;
      history += `${hms(t + 21)} | ${prefix(unlucky, i, 4, true)} killed by ZmbM_PatrolNormal_Autumn\n`;
    }
    if (i % 25 === 12) history += `${hms(t + 30)} | Chat("${killer.name}"(id=${killer.id})): gg\n`;
  }
  const sessionStart = start + 6 * 3600;
  let session = header(sessionStart);
  const online = people.slice(0, f.onlinePlayers);
  for (const [k, p] of online.entries()) session += `${hms(sessionStart + 10 + k)} | Player "${p.name}" is connected (id=${p.id})\n`;
  session += `${hms(sessionStart + 40)} | ${prefix(online[0]!, 0, 5)}[HP: 84.6] hit by FallDamageHealth\n`;
  for (const block of [300, 600]) {
    session += `${hms(sessionStart + block)} | ##### PlayerList log: ${online.length} players\n`;
    for (const [k, p] of online.entries()) session += `${hms(sessionStart + block)} | ${prefix(p, k, block)}\n`;
    session += `${hms(sessionStart + block)} | #####\n`;
  }
  return { history, session };
}

/** ms of the newest line of the template (the session's last PlayerList block), read as UTC. */
export function templateNewestMs(session: string): number {
  const times = [...session.matchAll(/^(\d{2}):(\d{2}):(\d{2}) \| /gm)].map((m) => Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]));
  return Date.parse(`${templateDay}T00:00:00Z`) + Math.max(...times) * 1000;
}

/**
 * Moves every time of a template log by `shiftMs` (whole seconds): headers get their new date and
 * time, lines their new HH:MM:SS. Byte lengths do not change, so event ids (by offset) stay the same.
 */
export function retime(text: string, shiftMs: number): string {
  const shiftS = Math.round(shiftMs / 1000);
  return text
    .replace(
      /^AdminLog started on (\d{4}-\d{2}-\d{2}) at (\d{2}):(\d{2}):(\d{2})$/gm,
      (_m, date: string, h: string, m: string, s: string) => {
        const moved = new Date(Date.parse(`${date}T${h}:${m}:${s}Z`) + shiftS * 1000).toISOString();
        return `AdminLog started on ${moved.slice(0, 10)} at ${moved.slice(11, 19)}`;
      },
    )
    .replace(/^(\d{2}):(\d{2}):(\d{2}) \| /gm, (_m, h: string, m: string, s: string) => {
      const seconds = (((Number(h) * 3600 + Number(m) * 60 + Number(s) + shiftS) % 86_400) + 86_400) % 86_400;
      return `${hms(seconds)} | `;
    });
}
