// Where a server's game file may be on the service's host (docs/game-files.md), read from the path alone:
// every spelling that could lead out of GAME_FILES_DIR (or name two files, or a device) is refused;
// a plain path comes back in one normal form; and for any string at all, what comes back resolves
// inside the folder.
import { resolve, sep } from 'node:path';
import test from 'ava';
import fc from 'fast-check';
import { fileKey, hostFilePath } from '../../src/game-files/host-path.ts';

const root = '/srv/dayz-files';

const refusedForms: [string, string, RegExp][] = [
  ['absolute outside the folder', '/etc/passwd', /outside GAME_FILES_DIR/],
  ['the dashboard of every community', '/work/main/web/dist/index.html', /outside GAME_FILES_DIR/],
  ['a sibling folder sharing the prefix', '/srv/dayz-files-other/ban.txt', /outside GAME_FILES_DIR/],
  ['the folder itself, absolute', '/srv/dayz-files', /outside GAME_FILES_DIR/],
  ['a parent step', '../ban.txt', /".."/],
  ['a parent step deeper', 'a/../../ban.txt', /".."/],
  ['in and out again', './x/../../y', /".."/],
  ['absolute with a parent step inside', '/srv/dayz-files/../dayz-files/ban.txt', /".."/],
  ['a parent step at the end', 'a/..', /".."/],
  ['a lone parent step', '..', /".."/],
  ['percent-escaped dots', '%2e%2e/ban.txt', /may hold only/],
  ['percent-escaped slash', '..%2fban.txt', /dot|may hold only/],
  ['full-width dots', '\uff0e\uff0e/ban.txt', /may hold only/],
  ['one-dot leaders', '\u2024\u2024/ban.txt', /may hold only/],
  ['a two-dot leader', '\u2025/ban.txt', /may hold only/],
  ['a fraction slash', '..\u2044ban.txt', /dot|may hold only/],
  ['a full-width solidus', 'a\uff0fban.txt', /may hold only/],
  ['a combining dot', 'ban\u0307.txt', /may hold only/],
  ['a right-to-left override', 'ban\u202etxt.exe', /may hold only/],
  ['NUL', 'ban.txt\u0000.png', /control character/],
  ['a newline', 'ban\n.txt', /control character/],
  ['DEL', 'ban\u007f.txt', /control character/],
  ['a C1 control', 'ban\u0085.txt', /control character/],
  ['a backslash step', '..\\ban.txt', /backslash/],
  ['a Windows path', 'C:\\DayZ\\ban.txt', /backslash/],
  ['a Windows drive with slashes', 'C:/DayZ/ban.txt', /Windows drive/],
  ['a drive-relative path', 'c:ban.txt', /Windows drive/],
  ['a UNC path', '\\\\server\\share\\ban.txt', /backslash/],
  ['a UNC path with slashes', '//server/share/ban.txt', /UNC/],
  ['a device namespace', '\\\\.\\PhysicalDrive0', /backslash/],
  ['a Windows device name', 'NUL', /device name/],
  ['a Windows device name with an extension', 'profiles/con.txt', /device name/],
  ['a serial port', 'COM1.log', /device name/],
  ['a trailing slash', 'ban.txt/', /names a folder/],
  ['a trailing dot part', 'profiles/.', /names a folder/],
  ['a trailing dot', 'ban.txt.', /end with a dot/],
  ['a trailing space', 'ban.txt ', /end with a dot or a space/],
  ['a hidden file', '.env', /start with a dot/],
  ['a temporary file of a sync', '.ban.txt.0a1b2c.sync-tmp', /start with a dot/],
  ['three dots', '.../ban.txt', /start with a dot/],
  ['the folder itself', '.', /GAME_FILES_DIR itself/],
  ['the folder itself, with slashes', './/.', /names a folder/],
  ['empty', '', /empty/],
  ['a tilde (a Windows short name)', 'PROGRA~1/ban.txt', /may hold only/],
  ['a colon (an NTFS stream)', 'ban.txt:hidden', /may hold only/],
  ['a glob', '*.txt', /may hold only/],
  ['a shell expansion', '$HOME/ban.txt', /may hold only/],
  ['over 500 characters', `${'a/'.repeat(250)}ban.txt`, /longer than 500/],
  ['a part over 255 characters', `${'a'.repeat(256)}.txt`, /longer than 255/],
];

for (const [label, raw, reason] of refusedForms) {
  test(`refused: ${label}`, (t) => {
    const result = hostFilePath(raw, root);
    t.false(result.ok, JSON.stringify(result));
    if (!result.ok) t.regex(result.reason, reason);
  });
}

const acceptedForms: [string, string][] = [
  ['ban.txt', 'ban.txt'],
  ['./ban.txt', 'ban.txt'],
  ['chernarus-1/ban.txt', 'chernarus-1/ban.txt'],
  ['chernarus-1//ban.txt', 'chernarus-1/ban.txt'],
  ['chernarus-1/./ban.txt', 'chernarus-1/ban.txt'],
  ['/srv/dayz-files/chernarus-1/ban.txt', 'chernarus-1/ban.txt'],
  ['/srv//dayz-files/./chernarus-1/ban.txt', 'chernarus-1/ban.txt'],
  ['DayZ Server (2)/priority.txt', 'DayZ Server (2)/priority.txt'],
  ['a..b/ban.txt', 'a..b/ban.txt'],
  ['console/nullified.txt', 'console/nullified.txt'],
];

for (const [raw, normal] of acceptedForms) {
  test(`accepted in its normal form: ${JSON.stringify(raw)}`, (t) => {
    t.deepEqual(hostFilePath(raw, root), { ok: true, path: normal });
  });
}

test('one file, one key: spellings of the same file (and case) share it; others do not', (t) => {
  t.is(fileKey('/srv/dayz-files/a/Ban.txt', root), fileKey('./a//ban.txt', root));
  t.not(fileKey('a/ban.txt', root), fileKey('b/ban.txt', root));
  t.is(fileKey('../ban.txt', root), undefined);
});

/** Strings rich in what path tricks are made of. */
const trickyPath = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        '.',
        '..',
        '/',
        '\\',
        '%',
        '%2e',
        '%2f',
        '%5c',
        '\u0000',
        '\n',
        'C:',
        'c:',
        '\\\\',
        '//',
        '~',
        ':',
        ' ',
        '\uff0e',
        '\u2024',
        '\u2025',
        '\u3002',
        '\ufe52',
        '\u2044',
        '\u2215',
        '\uff0f',
        '\u0307',
        '\u202e',
        '\ud800',
        'srv',
        'dayz-files',
        '/srv/dayz-files',
        '/srv/dayz-files/',
        'ban.txt',
        'NUL',
        'con',
        'a',
        'B',
      ),
      fc.string({ maxLength: 4 }),
      fc.string({ unit: 'grapheme', maxLength: 3 }),
    ),
    { maxLength: 14 },
  )
  .map((parts) => parts.join(''));

test('property: for any string, the rule refuses it or returns a path that resolves inside the folder', (t) => {
  fc.assert(
    fc.property(fc.oneof(trickyPath, fc.string({ unit: 'binary', maxLength: 60 })), (raw) => {
      const result = hostFilePath(raw, root);
      if (!result.ok) return;
      const placed = resolve(root, result.path);
      if (!placed.startsWith(root + sep)) throw new Error(`${JSON.stringify(raw)} -> ${result.path} resolves to ${placed}`);
      // The normal form is a fixed point, and means the same file.
      if (JSON.stringify(hostFilePath(result.path, root)) !== JSON.stringify(result))
        throw new Error(`${result.path} is not in normal form`);
      if (result.path.split('/').some((part) => part === '' || part.startsWith('.')))
        throw new Error(`${result.path} has an empty or dot part`);
    }),
    { numRuns: 20_000 },
  );
  t.pass();
});
