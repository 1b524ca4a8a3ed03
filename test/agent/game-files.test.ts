// The agent's side of the game-file pull (the contract: GET /api/servers/:id/files/bans and
// /files/priority with the ingest token answer the rendered file). The service routes are built on
// another branch; this checks the agent's writing against a server speaking that contract.
import { createServer } from 'node:http';
import type { ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import test from 'ava';
import type { ExecutionContext } from 'ava';
import fc from 'fast-check';
import { gameFileMaxBytes, pullGameFiles } from '../../src/agent/game-files.ts';
import { platformIdKind } from '../../src/identities/id-forms.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const serverId = '5f0c6a2e-1d4b-4c8e-a3f7-2b9d8e6c1a01';
const warnings: string[] = [];
const log = { info: () => undefined, warn: (_f: object, m: string) => void warnings.push(m), error: () => undefined };

test('ban.txt and priority.txt are written as served, atomically, only when changed; a failed pull keeps them', async (t) => {
  const files: Record<string, { status: number; body: string }> = {
    bans: { status: 200, body: '76561198000000001\r\nhYJaNGoMDv2QEno2R7tXKUSj8eXefMiv_UvAF_EUKto=\r\n' },
    priority: { status: 200, body: '76561198000000002;' },
  };
  const seen: string[] = [];
  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url} ${req.headers.authorization}`);
    const name = /\/files\/(bans|priority)$/.exec(req.url ?? '')?.[1];
    const file = name ? files[name]! : { status: 404, body: '{}' };
    res.writeHead(file.status, { 'content-type': 'text/plain' }).end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  const dir = await tempDir(t, 'profile-');
  const opts = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    serverId,
    token: 'ing_token',
    dir,
    requestTimeoutMs: 5000,
    log,
  };
  t.deepEqual(await pullGameFiles(opts), ['ban.txt', 'priority.txt']);
  t.deepEqual(seen, [
    `GET /api/servers/${serverId}/files/bans Bearer ing_token`,
    `GET /api/servers/${serverId}/files/priority Bearer ing_token`,
  ]);
  t.is(await readFile(join(dir, 'ban.txt'), 'utf8'), files.bans!.body);
  t.is(await readFile(join(dir, 'priority.txt'), 'utf8'), files.priority!.body);
  t.deepEqual(await pullGameFiles(opts), [], 'unchanged files are not rewritten');
  files.bans = { status: 503, body: '{"error":"SERVICE_UNAVAILABLE"}' };
  files.priority = { status: 200, body: '76561198000000002;76561198000000003;' };
  t.deepEqual(await pullGameFiles(opts), ['priority.txt']);
  t.is(await readFile(join(dir, 'ban.txt'), 'utf8'), '76561198000000001\r\nhYJaNGoMDv2QEno2R7tXKUSj8eXefMiv_UvAF_EUKto=\r\n');
  t.true(warnings.length >= 1);
  t.deepEqual((await readdir(dir)).sort(), ['ban.txt', 'priority.txt'], 'no temporary file is left');
  await writeFile(join(dir, 'ban.txt'), 'edited by hand\n');
  await pullGameFiles({ ...opts, url: 'http://127.0.0.1:1' });
  t.is(await readFile(join(dir, 'ban.txt'), 'utf8'), 'edited by hand\n', 'an unreachable service changes nothing');
});

// What a pull answers is written beside the game only when it is a whole valid file of its kind
// and at most 8 MiB; anything else is refused whole and the old file stays.

const steam = '76561198000000001';
const dayz = 'hYJaNGoMDv2QEno2R7tXKUSj8eXefMiv_UvAF_EUKto=';
const xbox = 'D0B9EDC7A5238AB0A559C250E9849B23D2629915';
const validBans = `${steam}\r\n${dayz}\r\n`;
const validPriority = `${steam};${xbox};`;

type Handler = (res: ServerResponse, route: 'bans' | 'priority') => void;

/** A service answering each pull with `handler`; a fresh profile folder holding valid files; a log that keeps what it warned. */
async function setUp(t: ExecutionContext, handler: { current: Handler }) {
  const server = createServer((req, res) => handler.current(res, req.url?.endsWith('/priority') ? 'priority' : 'bans'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    server.closeAllConnections();
    server.close();
  });
  const dir = await tempDir(t, 'profile-');
  await writeFile(join(dir, 'ban.txt'), validBans);
  await writeFile(join(dir, 'priority.txt'), validPriority);
  const warned: { fields: Record<string, unknown>; message: string }[] = [];
  const log = {
    info: () => undefined,
    warn: (fields: object, message: string) => void warned.push({ fields: fields as Record<string, unknown>, message }),
    error: () => undefined,
  };
  const opts = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    serverId,
    token: 'ing_token',
    dir,
    requestTimeoutMs: 10_000,
    log,
    refusalsLogged: new Set<string>(),
  };
  const kept = async () => [await readFile(join(dir, 'ban.txt'), 'utf8'), await readFile(join(dir, 'priority.txt'), 'utf8')];
  return { opts, dir, warned, kept };
}

const answer =
  (bans: string | Buffer, priority: string | Buffer): Handler =>
  (res, route) =>
    void res.writeHead(200, { 'content-type': 'text/plain' }).end(route === 'bans' ? bans : priority);

test('a file with anything but ids is refused whole: paths, markup, junk after an id, a NUL, a BOM, comments', async (t) => {
  const handler = { current: answer(validBans, validPriority) };
  const { opts, warned, kept } = await setUp(t, handler);
  const bad: [string, string, string][] = [
    [`${steam}\r\n../../etc/passwd\r\n`, `${steam};../../etc/passwd;`, 'a line that is not a platform id'],
    [`<script>alert(1)</script>\n${steam}\n`, `<script>;`, 'a line that is not a platform id'],
    [`${steam} junk\n`, `${steam};junk;`, 'a line that is not a platform id'],
    [`${steam}junk\n`, `${steam}`, 'a line that is not a platform id'],
    [`${steam}\n${dayz}\0\n`, `${steam};\0`, 'a NUL byte'],
    [`\uFEFF${steam}\n`, `\uFEFF${steam};`, 'a byte outside ASCII'],
    [`${steam} // cheater\n`, `// queue\n${steam};`, 'a line that is not a platform id'],
    [`${steam}\r${dayz}\n`, `${steam};\r${xbox};`, 'a carriage return not ending a line'],
    [`${steam}\x1b[2J\n`, `${steam};\t`, 'a control character'],
  ];
  for (const [bans, priority, reason] of bad) {
    handler.current = answer(bans, priority);
    t.deepEqual(await pullGameFiles(opts), [], JSON.stringify(bans));
    t.deepEqual(await kept(), [validBans, validPriority], 'the old files stay');
    t.true(
      warned.some((w) => w.fields.file === 'ban.txt' && w.fields.reason === reason),
      `${reason}: ${JSON.stringify(warned.at(-1))}`,
    );
  }
  t.true(warned.every((w) => w.message === 'game file refused; the file is kept as it is'));
  // The same wrong file pulled again is not logged again.
  const logged = warned.length;
  handler.current = answer(`${steam} junk\n`, `${steam};junk;`);
  await pullGameFiles(opts);
  t.is(warned.length, logged);
  t.deepEqual(await readdir(opts.dir), ['ban.txt', 'priority.txt'], 'no temporary file is left');
  // A valid file after invalid ones is written.
  handler.current = answer(`${xbox}\n\n${steam}\n`, `${dayz};\r\n${steam};\n`);
  t.deepEqual(await pullGameFiles(opts), ['ban.txt', 'priority.txt']);
  t.deepEqual(await kept(), [`${xbox}\n\n${steam}\n`, `${dayz};\r\n${steam};\n`]);
  // An empty file is valid: no bans, nobody queued.
  handler.current = answer('', '');
  t.deepEqual(await pullGameFiles(opts), ['ban.txt', 'priority.txt']);
  t.deepEqual(await kept(), ['', '']);
});

test('a file of exactly 8 MiB is written; one byte more is refused, and so is a Content-Length over 8 MiB', async (t) => {
  const line = `${steam}\n`;
  const lines = Math.floor(gameFileMaxBytes / line.length);
  const atCap = line.repeat(lines) + '\n'.repeat(gameFileMaxBytes - lines * line.length);
  t.is(Buffer.byteLength(atCap), gameFileMaxBytes);
  const handler = { current: answer(atCap, validPriority) };
  const { opts, warned, kept } = await setUp(t, handler);
  t.deepEqual(await pullGameFiles(opts), ['ban.txt']);
  t.is((await kept())[0], atCap);
  handler.current = answer(`${atCap}\n`, validPriority);
  t.deepEqual(await pullGameFiles(opts), []);
  t.is((await kept())[0], atCap);
  t.like(warned.at(-1), { fields: { file: 'ban.txt', reason: 'more than 8 MiB' } });
  // Declared too large: refused on the headers, without waiting for a body that never comes.
  handler.current = (res) => void res.writeHead(200, { 'content-length': String(gameFileMaxBytes + 1) }).write(line);
  const started = Date.now();
  t.deepEqual(await pullGameFiles(opts), []);
  t.true(Date.now() - started < opts.requestTimeoutMs / 2);
  t.like(warned.filter((w) => w.fields.reason === 'a Content-Length over 8 MiB')[0], {
    fields: { file: 'ban.txt', bytes: gameFileMaxBytes + 1 },
  });
  t.deepEqual(await kept(), [atCap, validPriority]);
});

test('a 400 MB answer is read as a stream and abandoned past 8 MiB: refused, the old file kept, the connection closed', async (t) => {
  const sent = { bytes: 0 };
  const stream =
    (status: number): Handler =>
    (res) => {
      // Valid lines without end (no Content-Length), written as fast as the agent reads them.
      const chunk = Buffer.from(`${steam}\n`.repeat(3641));
      res.writeHead(status, { 'content-type': 'text/plain' });
      const pump = () => {
        while (sent.bytes < 400e6 && !res.destroyed) {
          sent.bytes += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      pump();
    };
  const handler = { current: stream(200) };
  const { opts, warned, kept } = await setUp(t, handler);
  t.deepEqual(await pullGameFiles(opts), []);
  t.deepEqual(await kept(), [validBans, validPriority]);
  t.like(
    warned.find((w) => w.fields.file === 'ban.txt'),
    { fields: { reason: 'more than 8 MiB' } },
  );
  t.true(sent.bytes < 64 * 2 ** 20, `${sent.bytes} bytes sent before the agent hung up`);
  // An error answer is not read whole either: its first bytes go to the log.
  sent.bytes = 0;
  handler.current = stream(500);
  t.deepEqual(await pullGameFiles(opts), []);
  t.true(sent.bytes < 64 * 2 ** 20);
  t.like(warned.at(-1), { message: 'game file not pulled; the file is kept as it is', fields: { status: 500 } });
});

/** The oracle, written apart from the agent's check: every line (CRLF or LF) blank or, for ban.txt, an id; for priority.txt, `id;` entries. */
function isValid(route: 'bans' | 'priority', bytes: Buffer): boolean {
  const lines = bytes.toString('latin1').split(/\r?\n/);
  if (route === 'bans') return lines.every((line) => line === '' || platformIdKind(line) !== undefined);
  return lines.every(
    (line) =>
      /^(?:[^;]+;)*$/.test(line) &&
      line
        .split(';')
        .slice(0, -1)
        .every((id) => platformIdKind(id) !== undefined),
  );
}

test('property: any bytes are either a valid file, written as they are, or refused with the old file untouched', async (t) => {
  const handler = { current: answer(validBans, validPriority) };
  const { opts, dir } = await setUp(t, handler);
  const piece = fc.oneof(
    fc.constantFrom(
      steam,
      dayz,
      xbox,
      '76561197960265727',
      dayz.slice(1),
      xbox.toLowerCase(),
      '\n',
      '\r\n',
      '\r',
      ';',
      ' ',
      '\0',
      '\t',
      '//',
      '../../etc/passwd',
      '<script>',
      '\uFEFF',
      'é',
    ),
    fc.string({ maxLength: 3 }),
  );
  const content = fc.oneof(
    fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)),
    fc.array(piece, { maxLength: 12 }).map((parts) => Buffer.from(parts.join(''), 'utf8')),
    fc
      .array(fc.tuple(fc.constantFrom(steam, dayz, xbox), fc.constantFrom('\n', '\r\n', ';', ';\n', ';\r\n')), { maxLength: 6 })
      .map((parts) => Buffer.from(parts.flat().join(''), 'utf8')),
  );
  const files = { bans: Buffer.from(validBans), priority: Buffer.from(validPriority) };
  let written = 0;
  await fc.assert(
    fc.asyncProperty(content, async (bytes) => {
      handler.current = answer(bytes, bytes);
      const names = await pullGameFiles(opts);
      for (const [route, name] of [
        ['bans', 'ban.txt'],
        ['priority', 'priority.txt'],
      ] as const) {
        const valid = isValid(route, bytes);
        if (valid) files[route] = bytes;
        const now = await readFile(join(dir, name));
        if (!now.equals(files[route]))
          throw new Error(`${name} ${valid ? 'not written' : 'changed'} for ${JSON.stringify(bytes.toString('latin1'))}`);
        if (names.includes(name) && !valid) throw new Error(`${name} written though invalid`);
        if (names.includes(name)) written += 1;
      }
    }),
    { numRuns: 300 },
  );
  t.true(written > 0, 'some valid files were drawn');
  t.deepEqual((await readdir(dir)).sort(), ['ban.txt', 'priority.txt']);
});
