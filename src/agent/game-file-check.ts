// Checks a pulled game file before the agent writes it beside the game: it must be a file of its
// kind as the service renders it (src/game-files/ban-file.ts), or it is not written at all. The game
// reads these files with its own parser, so nothing but ids may reach them: not a path, not markup,
// not a NUL. Pure, and imports only id-forms, so the agent can be bundled alone.
import { platformIdKind } from '../identities/id-forms.ts';

export type GameFileKind = 'bans' | 'priority';

/** Why a content is no valid file of its kind: `reason` is one of a few fixed texts, `line` counts from 1. */
export interface GameFileProblem {
  reason: string;
  line: number;
}

const lineFeed = 0x0a;
const carriageReturn = 0x0d;

/** The first byte no valid file holds: the ids are ASCII, the only controls CR and LF. */
function badByte(content: Uint8Array): { reason: string; at: number } | undefined {
  for (let at = 0; at < content.length; at += 1) {
    const byte = content[at]!;
    if (byte === 0) return { reason: 'a NUL byte', at };
    if (byte >= 0x80) return { reason: 'a byte outside ASCII', at };
    if ((byte < 0x20 && byte !== lineFeed && byte !== carriageReturn) || byte === 0x7f) return { reason: 'a control character', at };
  }
  return undefined;
}

/** Whether one line (its CR already removed) is right for the kind. */
function lineProblem(kind: GameFileKind, line: string): string | undefined {
  if (line === '') return undefined;
  if (line.includes('\r')) return 'a carriage return not ending a line';
  if (kind === 'bans') return platformIdKind(line) ? undefined : 'a line that is not a platform id';
  // priority.txt: `id;` entries, any number on a line; every id is followed by its `;`.
  const entries = line.split(';');
  if (entries.pop() !== '') return 'an entry without its `;`';
  return entries.every((id) => platformIdKind(id) !== undefined) ? undefined : 'an entry that is not a platform id';
}

/**
 * What makes `content` no valid file of its kind; undefined when it is one. ban.txt: a platform id
 * per line (Steam64, DayZ ID or console id); priority.txt: `id;` entries separated by `;` and line
 * ends. Both: CRLF or LF line ends, blank lines, nothing else (no BOM, comment or space).
 */
export function gameFileProblem(kind: GameFileKind, content: Uint8Array): GameFileProblem | undefined {
  const bad = badByte(content);
  if (bad) return { reason: bad.reason, line: lineAt(content, bad.at) };
  const lines = Buffer.from(content.buffer, content.byteOffset, content.byteLength).toString('latin1').split('\n');
  for (const [i, raw] of lines.entries()) {
    // A CR ends a line only before its LF: the last line has none.
    const crlf = i < lines.length - 1 && raw.endsWith('\r');
    const reason = lineProblem(kind, crlf ? raw.slice(0, -1) : raw);
    if (reason) return { reason, line: i + 1 };
  }
  return undefined;
}

function lineAt(content: Uint8Array, at: number): number {
  let line = 1;
  for (let i = 0; i < at; i += 1) if (content[i] === lineFeed) line += 1;
  return line;
}
