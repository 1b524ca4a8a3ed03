// With --files, keeps ban.txt and priority.txt in the game server's profile folder as the service
// renders them (docs/game-files.md): pulled with the ingest token at start and every minute, written
// atomically and only when they changed. A failed pull keeps the files as they are; so does a pull
// that is no valid file of its kind (game-file-check.ts) or is larger than 8 MiB: it is refused
// whole, never written in part. The body is read as a stream and abandoned at the cap, so a huge
// or endless answer never sits in memory.
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { readUpTo } from './bounded-body.ts';
import { gameFileProblem } from './game-file-check.ts';
import type { GameFileKind } from './game-file-check.ts';
import { writeAtomically } from '../store/atomic-write.ts';
import type { AgentLog } from './sender.ts';

/** A pull larger than this is refused: 8 MiB holds some 130,000 Steam64 bans (two lines each). */
export const gameFileMaxBytes = 8 * 1024 * 1024;
/** Bytes of an error answer kept for the log. */
const errorBodyBytes = 200;

export interface GameFilesOptions {
  url: string;
  serverId: string;
  token: string;
  dir: string;
  requestTimeoutMs: number;
  log: AgentLog;
  /**
   * The refusals already logged (file and reason): the agent keeps one set for its run, so a
   * service answering the same wrong file every minute is logged once, not every minute.
   */
  refusalsLogged?: Set<string>;
}

const files: readonly { route: GameFileKind; name: string }[] = [
  { route: 'bans', name: 'ban.txt' },
  { route: 'priority', name: 'priority.txt' },
];

/** Pulls both files once; returns the names written. */
export async function pullGameFiles(opts: GameFilesOptions): Promise<string[]> {
  const written: string[] = [];
  for (const file of files) {
    try {
      if (await pullFile(opts, file.route, file.name)) written.push(file.name);
    } catch (err) {
      opts.log.warn({ file: file.name, err: (err as Error).message }, 'game file not pulled; the file is kept as it is');
    }
  }
  return written;
}

/** Pulls one file; true when it was written. */
async function pullFile(opts: GameFilesOptions, route: GameFileKind, name: string): Promise<boolean> {
  const res = await fetch(`${opts.url}/api/servers/${opts.serverId}/files/${route}`, {
    headers: { authorization: `Bearer ${opts.token}` },
    signal: AbortSignal.timeout(opts.requestTimeoutMs),
  });
  if (res.status !== 200) {
    const { bytes } = await readUpTo(res, errorBodyBytes);
    opts.log.warn({ file: name, status: res.status, body: bytes.toString('utf8') }, 'game file not pulled; the file is kept as it is');
    return false;
  }
  const declared = Number(res.headers.get('content-length') ?? 0);
  if (declared > gameFileMaxBytes) {
    await res.body?.cancel().catch(() => undefined);
    refuse(opts, name, 'a Content-Length over 8 MiB', { bytes: declared });
    return false;
  }
  const { bytes, over } = await readUpTo(res, gameFileMaxBytes);
  if (over) {
    refuse(opts, name, 'more than 8 MiB', {});
    return false;
  }
  const problem = gameFileProblem(route, bytes);
  if (problem) {
    refuse(opts, name, problem.reason, { line: problem.line });
    return false;
  }
  const path = join(opts.dir, name);
  if (await sameContent(path, bytes)) return false;
  await writeAtomically(path, bytes);
  opts.log.info({ file: path, bytes: bytes.length }, 'game file written');
  return true;
}

/** Whether the file holds exactly `content` (read only when its size already matches). */
async function sameContent(path: string, content: Buffer): Promise<boolean> {
  const size = await stat(path).then(
    (st) => st.size,
    () => undefined,
  );
  if (size !== content.length) return false;
  const old = await readFile(path).catch(() => undefined);
  return old !== undefined && old.equals(content);
}

function refuse(opts: GameFilesOptions, name: string, reason: string, fields: object): void {
  const key = `${name}: ${reason}`;
  if (opts.refusalsLogged?.has(key)) return;
  opts.refusalsLogged?.add(key);
  opts.log.warn({ file: name, reason, ...fields }, 'game file refused; the file is kept as it is');
}
