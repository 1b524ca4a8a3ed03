// Where a server's game file may be on the service's host (docs/game-files.md): inside GAME_FILES_DIR, and
// nowhere else. Pure and lexical: this decides what a path string means; host-files.ts checks what
// the file system holds there. A path is taken relative to the folder, or absolute inside it, and
// kept in one normal form (relative, `/` between parts), so that one file has one spelling and two
// servers can be told apart by their paths.
//
// The parts allowed are deliberately plain (ASCII letters, digits, space and `. _ - + ( )`, never
// first a dot): percent escapes, full-width or other look-alike dots, backslashes, drive letters,
// UNC names, Windows device names and hidden files are refused rather than interpreted, so no
// spelling of a path can lead anywhere its plain reading does not.

export const maxPathChars = 500;
/** The longest name of one part most file systems take (bytes; every allowed character is one byte). */
const maxPartChars = 255;

export type HostPath = { ok: true; path: string } | { ok: false; reason: string };

const isControl = (ch: string) => ch.charCodeAt(0) < 0x20 || (ch.charCodeAt(0) >= 0x7f && ch.charCodeAt(0) <= 0x9f);
const refused = (reason: string): HostPath => ({ ok: false, reason });

const plainPart = /^[A-Za-z0-9_\-+()][A-Za-z0-9._\-+() ]*$/;
/** Names Windows opens as devices whatever their extension (NUL.txt is NUL). */
const windowsDevice = /^(con|prn|aux|nul|com[0-9]|lpt[0-9]|conin\$|conout\$)(\..*)?$/i;

function partProblem(part: string): string | undefined {
  if (part.length > maxPartChars) return `a part of the path is longer than ${maxPartChars} characters`;
  if (part.startsWith('.')) return `"${part}": a part of the path may not start with a dot`;
  if (!plainPart.test(part)) return `"${part}": a part of the path may hold only letters A-Z, digits, spaces and . _ - + ( )`;
  if (/[. ]$/.test(part)) return `"${part}": a part of the path may not end with a dot or a space`;
  if (windowsDevice.test(part)) return `"${part}" is a device name on Windows`;
  return undefined;
}

/** The parts of a '/'-separated path, without empty and `.` parts. */
const partsOf = (path: string) => path.split('/').filter((p) => p !== '' && p !== '.');

/**
 * The normal form of a server's file path inside `root` (GAME_FILES_DIR, absolute and normalised),
 * or why it is refused. The normal form is relative: `path.resolve(root, it)` is inside `root`.
 */
export function hostFilePath(raw: string, root: string): HostPath {
  if (raw.length === 0) return refused('the path is empty');
  if (raw.length > maxPathChars) return refused(`the path is longer than ${maxPathChars} characters`);
  if ([...raw].some(isControl)) return refused('the path holds a control character');
  if (raw.includes('\\')) return refused('the path holds a backslash: parts are separated by /, and Windows or UNC paths are not taken');
  if (raw.startsWith('//')) return refused('a UNC or network path is not taken: give the path relative to GAME_FILES_DIR');
  if (/^[A-Za-z]:/.test(raw)) return refused('a Windows drive path is not taken: give the path relative to GAME_FILES_DIR');
  if (raw.endsWith('/') || raw.endsWith('/.')) return refused('the path names a folder, not a file');
  if (raw.split('/').includes('..')) return refused('the path may not hold a ".." part');
  let relative = raw;
  if (raw.startsWith('/')) {
    const inside = partsOf(raw);
    const rootParts = partsOf(root);
    if (inside.length <= rootParts.length || rootParts.some((part, i) => inside[i] !== part)) {
      return refused('the path is outside GAME_FILES_DIR: give it relative to that folder, or absolute inside it');
    }
    relative = inside.slice(rootParts.length).join('/');
  }
  const parts = partsOf(relative);
  if (parts.length === 0) return refused('the path names GAME_FILES_DIR itself, not a file in it');
  for (const part of parts) {
    const problem = partProblem(part);
    if (problem) return refused(problem);
  }
  return { ok: true, path: parts.join('/') };
}

/**
 * The key under which two paths name one file: the normal form without case (a folder on a
 * case-insensitive file system holds Ban.txt and ban.txt as one file). Undefined when refused.
 */
export function fileKey(raw: string, root: string): string | undefined {
  const normal = hostFilePath(raw, root);
  return normal.ok ? normal.path.toLowerCase() : undefined;
}
