// A large DayZ admin log for the agent benchmark, written deterministically in the real format as a
// stream (memory stays flat whatever its size): a PlayerList block of every player every 300 s,
// connects and disconnects, hits before each kill, ranged and melee kills, deaths by infected,
// building and chat lines the agent skips. Game time advances one second per few lines, so the
// day rolls over as on a real server.
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { dayzIdOf } from '../src/identities/id-forms.ts';

const hms = (s: number) => [Math.floor(s / 3600) % 24, Math.floor(s / 60) % 60, s % 60].map((x) => String(x).padStart(2, '0')).join(':');

export async function writeBenchLog(path: string, lines: number, playerCount = 60): Promise<void> {
  const out = createWriteStream(path);
  const players = Array.from({ length: playerCount }, (_, i) => ({
    id: dayzIdOf(String(76561198300000000n + BigInt(i))),
    name: `Survivor ${i}`,
  }));
  const pos = (n: number) =>
    `${(1000 + ((n * 131) % 12000)).toFixed(1)}, ${(1000 + ((n * 97) % 12000)).toFixed(1)}, ${(50 + (n % 300)).toFixed(1)}`;
  const prefix = (p: (typeof players)[number], n: number, dead = false) =>
    `Player "${p.name}"${dead ? ' (DEAD)' : ''} (id=${p.id} pos=<${pos(n)}>)`;
  let written = 0;
  let chunk = '';
  const put = async (line: string) => {
    chunk += `${line}\n`;
    written += 1;
    if (chunk.length > 1 << 20) {
      if (!out.write(chunk)) await once(out, 'drain');
      chunk = '';
    }
  };
  await put('');
  await put('******************************************************************************');
  await put('AdminLog started on 2026-01-01 at 00:00:00');
  let second = 5;
  for (let n = 0; written < lines; n++) {
    const t = hms(second);
    const a = players[n % playerCount]!;
    const b = players[(n * 7 + 3) % playerCount]!;
    if (n % 300 === 0) {
      await put(`${t} | ##### PlayerList log: ${playerCount} players`);
      for (const [i, p] of players.entries()) await put(`${t} | ${prefix(p, n + i)}`);
      await put(`${t} | #####`);
    } else if (n % 11 === 0 && a !== b) {
      await put(
        `${t} | ${prefix(b, n)}[HP: 0] hit by ${prefix(a, n + 1)} into Head(0) for 80 damage (Bullet_762x39) with AKM from ${(n % 500) + 0.5} meters `,
      );
      await put(`${t} | ${prefix(b, n, true)} killed by ${prefix(a, n + 1)} with AKM from ${(n % 500) + 0.5} meters `);
    } else if (n % 17 === 0) {
      await put(`${t} | ${prefix(a, n)}[HP: 40] hit by Зараженный into RightLeg(3) for 6.8 damage (MeleeInfected)`);
      await put(`${t} | ${prefix(a, n, true)} killed by ZmbM_PatrolNormal_Autumn`);
    } else if (n % 5 === 0) {
      await put(`${t} | Player "${a.name}"(id=${a.id}) has been disconnected`);
      await put(`${t} | Player "${a.name}" is connected (id=${a.id})`);
    } else if (n % 3 === 0) {
      await put(`${t} | Chat("${a.name}"(id=${a.id})): anyone near Cherno?`);
    } else {
      await put(`${t} | ${prefix(a, n)} placed Набор для установки сторожевой башни`);
    }
    second += 1;
  }
  out.end(chunk);
  await once(out, 'finish');
}
