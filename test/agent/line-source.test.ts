import { appendFile, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import test from 'ava';
import { completeLines } from '../../src/agent/line-source.ts';
import { listAdmFiles } from '../../src/agent/adm-files.ts';
import { loadState, saveState } from '../../src/agent/state-file.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const collect = async (path: string, from = 0) => {
  const out = [];
  for await (const lines of completeLines(path, from)) out.push(...lines);
  return out;
};

test('only complete lines are read; a truncated last line waits for its end; offsets are bytes', async (t) => {
  const dir = await tempDir(t, 'adm-');
  const path = join(dir, 'a.ADM');
  await writeFile(path, 'первая\r\nsecond\nthird without end');
  const lines = await collect(path);
  t.deepEqual(
    lines.map((l) => [l.text, l.offset, l.end]),
    [
      ['первая\r', 0, 14],
      ['second', 14, 21],
    ],
  );
  await appendFile(path, ' now ended\n');
  t.deepEqual(
    (await collect(path, 21)).map((l) => l.text),
    ['third without end now ended'],
  );
});

test('many lines across read chunks, and a long line (under 64 KiB) across a chunk boundary, come out whole', async (t) => {
  const dir = await tempDir(t, 'adm-');
  const path = join(dir, 'b.ADM');
  const long = 'x'.repeat(60_000);
  const many = Array.from({ length: 20_000 }, (_, i) => `12:00:00 | line ${i} ё`);
  const before = `${many.join('\n')}\n`;
  // The long line starts before the second chunk boundary (512 KiB) and ends after it.
  const pad = 'p'.repeat(524_288 - 30_000 - Buffer.byteLength(before) - 1);
  await writeFile(path, `${before}${pad}\n${long}\nlast\n`);
  const lines = await collect(path);
  t.is(lines.length, 20_003);
  t.deepEqual(
    lines.slice(0, 20_000).map((l) => l.text),
    many,
  );
  t.true(lines[20_001]!.text === long, 'the long line is whole');
  t.is(lines[20_002]!.text, 'last');
  t.is(lines.at(-1)!.end, Buffer.byteLength(await readFile(path, 'utf8')));
});

test('ADM files are ordered by the date in their header, not their name; a file without a header is last', async (t) => {
  const dir = await tempDir(t, 'adm-');
  await writeFile(join(dir, 'DayZServer_2023_09_01.ADM'), '\n***\nAdminLog started on 2023-08-30 at 10:00:00\n');
  await writeFile(join(dir, 'DayZServer_2023_08_01.ADM'), '\n***\nAdminLog started on 2023-08-31 at 09:00:00\n');
  await writeFile(join(dir, 'new.adm'), '');
  await writeFile(join(dir, 'notes.txt'), 'AdminLog started on 2000-01-01 at 00:00:00\n');
  t.deepEqual(
    (await listAdmFiles(dir)).map((f) => f.name),
    ['DayZServer_2023_09_01.ADM', 'DayZServer_2023_08_01.ADM', 'new.adm'],
  );
});

test("the state file is written atomically and read back; another server's or a broken one starts over", async (t) => {
  const dir = await tempDir(t, 'adm-');
  const path = join(dir, 'state.json');
  const serverId = '5f0c6a2e-1d4b-4c8e-a3f7-2b9d8e6c1a01';
  t.deepEqual(await loadState(path, serverId), { version: 1, serverId, files: {} });
  await saveState(path, { version: 1, serverId, files: { 'a.ADM': 120 } });
  t.deepEqual((await loadState(path, serverId)).files, { 'a.ADM': 120 });
  t.deepEqual(await readdir(dir), ['state.json'], 'no temporary file is left');
  t.deepEqual((await loadState(path, '00000000-0000-4000-8000-000000000000')).files, {});
  await writeFile(path, JSON.stringify({ version: 1, serverId, files: { 'a.ADM': -5, 'b.ADM': 'x', 'c.ADM': 7 } }));
  t.deepEqual((await loadState(path, serverId)).files, { 'c.ADM': 7 });
  await writeFile(path, '{"version": 1, "serverId"');
  t.deepEqual((await loadState(path, serverId)).files, {});
});

test('a line longer than 64 KiB is passed on empty and marked, never kept; the lines around it are whole', async (t) => {
  const dir = await tempDir(t, 'adm-');
  const path = join(dir, 'c.ADM');
  const huge = 'z'.repeat(3 * 1024 * 1024);
  await writeFile(path, `before\n${huge}\nafter\n${'y'.repeat(100_000)}\nend\n${'w'.repeat(200_000)}`);
  const lines = await collect(path);
  t.deepEqual(
    lines.map((l) => [l.text, !!l.overlong]),
    [
      ['before', false],
      ['', true],
      ['after', false],
      ['', true],
      ['end', false],
    ],
  );
  t.is(lines[1]!.offset, 7);
  t.is(lines[1]!.end, 7 + huge.length + 1);
  t.is(lines[2]!.offset, lines[1]!.end);
  t.is(lines[4]!.end, Buffer.byteLength(`before\n${huge}\nafter\n${'y'.repeat(100_000)}\nend\n`));
});
