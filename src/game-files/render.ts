// Renders a server's game files from PostgreSQL, streaming rows in keyset pages so memory holds
// the rendered text only (once per account for the ban file, which is the same on every server).
import { createHash } from 'node:crypto';
import type { Queryable } from '../store/db.ts';
import { renderBanLines, renderPriorityEntry } from './ban-file.ts';
import type { LineEnding } from './ban-file.ts';
import { bansInForcePage, priorityPage } from './game-files.repo.ts';

const pageSize = 5000;

export interface RenderedFile {
  content: Buffer;
  entries: number;
  sha256: string;
}

const finish = (parts: string[], entries: number): RenderedFile => {
  const content = Buffer.from(parts.join(''), 'utf8');
  return { content, entries, sha256: createHash('sha256').update(content).digest('hex') };
};

/** The account's ban file: each ban in force at `nowIso`, oldest first. */
export async function renderBanFile(db: Queryable, accountId: string, nowIso: string, eol: LineEnding): Promise<RenderedFile> {
  const parts: string[] = [];
  let entries = 0;
  let after: { bannedAt: string; id: string } | null = null;
  for (;;) {
    const page = await bansInForcePage(db, accountId, nowIso, after, pageSize);
    for (const ban of page) parts.push(renderBanLines(ban.platformId, ban.dayzId, eol));
    entries += page.length;
    if (page.length < pageSize) break;
    after = page.at(-1)!;
  }
  return finish(parts, entries);
}

/** The server's priority file: every player queued on it at `nowIso`, `id;` each. */
export async function renderPriorityFile(db: Queryable, accountId: string, serverId: string, nowIso: string): Promise<RenderedFile> {
  const parts: string[] = [];
  let after: string | null = null;
  for (;;) {
    const page = await priorityPage(db, accountId, serverId, nowIso, after, pageSize);
    for (const entry of page) parts.push(renderPriorityEntry(entry.platformId));
    if (page.length < pageSize) break;
    after = page.at(-1)!.platformId;
  }
  return finish(parts, parts.length);
}

/** The same ban file with other line ends (rendered once, converted for a server that keeps LF). */
export function withLineEnding(file: RenderedFile, eol: LineEnding): RenderedFile {
  if (eol === '\r\n') return file;
  const content = Buffer.from(file.content.toString('utf8').replaceAll('\r\n', '\n'), 'utf8');
  return { content, entries: file.entries, sha256: createHash('sha256').update(content).digest('hex') };
}
