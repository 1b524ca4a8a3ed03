// The formats of ban.txt and priority.txt (docs/game-files.md). Pure functions.
// Written: each active ban as its Steam64 line then its DayZ ID line (a DayZ-ID-only or console
// ban as its line alone), nothing else; priority.txt as `id;` per entry. Read tolerantly: `//`
// comments (whole line or after an id), blank lines, CRLF or LF, a BOM, both id forms.
import { dayzIdOf, platformIdKind } from '../identities/id-forms.ts';

export type LineEnding = '\r\n' | '\n';

/** A new file is written with CRLF (what the game's Windows tools write). */
export const defaultLineEnding: LineEnding = '\r\n';

/** The lines of one ban: its Steam64 then its DayZ ID, or a DayZ ID or console id alone. */
export function banLines(platformId: string, dayzId?: string | null): string[] {
  if (platformIdKind(platformId) === 'steam64') return [platformId, dayzId ?? dayzIdOf(platformId)];
  return [platformId];
}

export const renderBanLines = (platformId: string, dayzId: string | null | undefined, eol: LineEnding) =>
  banLines(platformId, dayzId)
    .map((line) => line + eol)
    .join('');

export const renderPriorityEntry = (platformId: string) => `${platformId};`;

/** The line ending an existing file uses (its first line end), or undefined when it has none. */
export function lineEndingOf(text: string): LineEnding | undefined {
  const i = text.indexOf('\n');
  if (i < 0) return undefined;
  return i > 0 && text[i - 1] === '\r' ? '\r\n' : '\n';
}

const stripBom = (text: string) => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
const withoutComment = (line: string) => {
  const at = line.indexOf('//');
  return (at < 0 ? line : line.slice(0, at)).trim();
};

export interface ParsedIds {
  /** Platform ids found, in file order, each once. */
  ids: string[];
  /** Tokens that are no platform id (kept out of the file from now on; reported). */
  unreadable: string[];
}

function collect(tokens: string[]): ParsedIds {
  const ids = new Set<string>();
  const unreadable: string[] = [];
  for (const token of tokens) {
    if (token === '') continue;
    if (platformIdKind(token)) ids.add(token);
    else unreadable.push(token);
  }
  return { ids: [...ids], unreadable };
}

/** Reads ban.txt: one id per line. */
export function parseBanFile(text: string): ParsedIds {
  return collect(
    stripBom(text)
      .split(/\r?\n|\r/)
      .map(withoutComment),
  );
}

/** Reads priority.txt: ids separated by `;` and line ends. */
export function parsePriorityFile(text: string): ParsedIds {
  return collect(
    stripBom(text)
      .split(/\r?\n|\r/)
      .flatMap((line) =>
        withoutComment(line)
          .split(';')
          .map((t) => t.trim()),
      ),
  );
}

/**
 * Groups the ids of a ban file into bans: a Steam64 and its own DayZ ID line are one ban; any
 * other DayZ ID or console id is a ban of its own.
 */
export function bansOfIds(ids: string[]): string[] {
  const steam64s = ids.filter((id) => platformIdKind(id) === 'steam64');
  const covered = new Set(steam64s.map((id) => dayzIdOf(id)));
  return ids.filter((id) => platformIdKind(id) === 'steam64' || !covered.has(id));
}
