// With --files, keeps ban.txt and priority.txt in the game server's profile folder as the service
// renders them (DESIGN 9): pulled with the ingest token at start and every minute, written
// atomically and only when they changed. A failed pull keeps the files as they are.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomically } from './state-file.ts';
import type { AgentLog } from './sender.ts';

export interface GameFilesOptions {
  url: string;
  serverId: string;
  token: string;
  dir: string;
  requestTimeoutMs: number;
  log: AgentLog;
}

const files = [
  { route: 'bans', name: 'ban.txt' },
  { route: 'priority', name: 'priority.txt' },
] as const;

/** Pulls both files once; returns the names written. */
export async function pullGameFiles(opts: GameFilesOptions): Promise<string[]> {
  const written: string[] = [];
  for (const { route, name } of files) {
    try {
      const res = await fetch(`${opts.url}/api/servers/${opts.serverId}/files/${route}`, {
        headers: { authorization: `Bearer ${opts.token}` },
        signal: AbortSignal.timeout(opts.requestTimeoutMs),
      });
      const body = Buffer.from(await res.arrayBuffer());
      if (res.status !== 200) {
        opts.log.warn({ file: name, status: res.status, body: body.toString('utf8', 0, 200) }, 'game file not pulled; the file is kept as it is');
        continue;
      }
      const path = join(opts.dir, name);
      const old = await readFile(path).catch(() => undefined);
      if (old && old.equals(body)) continue;
      await writeFileAtomically(path, body);
      written.push(name);
      opts.log.info({ file: path, bytes: body.length }, 'game file written');
    } catch (err) {
      opts.log.warn({ file: name, err: (err as Error).message }, 'game file not pulled; the file is kept as it is');
    }
  }
  return written;
}
