// Atomic replacement of game files: a reader polling during many writes only ever sees a complete
// version; a writer killed with SIGKILL mid-write, many times over, never leaves a partial or empty
// file, and the next run leaves no temporary file behind.
import { spawn } from 'node:child_process';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import test from 'ava';
import { removeStaleTemps, writeAtomically } from '../../src/store/atomic-write.ts';
import { versions } from './fixtures/versions.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const known = new Set(versions);

test('a reader polling the file during 200 writes only ever sees a complete version', async (t) => {
  const dir = await tempDir(t, 'atomic-');
  const path = join(dir, 'ban.txt');
  await writeAtomically(path, versions[0]!);
  let writing = true;
  let reads = 0;
  const reader = (async () => {
    while (writing) {
      const text = await readFile(path, 'utf8');
      reads += 1;
      if (!known.has(text)) t.fail(`a read saw ${text.length} bytes that are no complete version`);
    }
  })();
  for (let i = 0; i < 200; i++) await writeAtomically(path, versions[i % 2]!);
  writing = false;
  await reader;
  t.true(reads > 10, `the reader read ${reads} times`);
  t.deepEqual(await readdir(dir), ['ban.txt']);
});

function runWriter(path: string, once = false) {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', new URL('./fixtures/write-loop.ts', import.meta.url).pathname, path, ...(once ? ['--once'] : [])],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('ready') && resolve());
    child.once('exit', (code) => reject(new Error(`writer exited ${code} before ready`)));
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, ready, exited };
}

test('a writer killed with SIGKILL mid-write, 12 times over, never leaves a partial or empty file; the next run cleans its temp files', async (t) => {
  const dir = await tempDir(t, 'sigkill-');
  const path = join(dir, 'ban.txt');
  let leftovers = 0;
  for (let round = 0; round < 12; round++) {
    const writer = runWriter(path);
    await writer.ready;
    await delay(5 + ((round * 37) % 60));
    writer.child.kill('SIGKILL');
    await writer.exited;
    const text = await readFile(path, 'utf8');
    t.true(known.has(text), `round ${round}: the file is a complete version (${text.length} bytes)`);
    leftovers += (await readdir(dir)).length - 1;
  }
  t.log(`temp files found after kills: ${leftovers}`);
  const last = runWriter(path, true);
  await last.ready;
  t.is(await last.exited, 0);
  t.deepEqual(await readdir(dir), ['ban.txt'], 'no temp file is left after the next run');
  t.is(await readFile(path, 'utf8'), versions[0]!);
});

test('stale temps of this file only are removed; other files are left alone', async (t) => {
  const dir = await tempDir(t, 'stale-');
  const path = join(dir, 'ban.txt');
  await writeFile(join(dir, '.ban.txt.abc123.sync-tmp'), 'partial');
  await writeFile(join(dir, '.priority.txt.abc123.sync-tmp'), 'partial');
  await writeFile(join(dir, 'ban.txt.bak'), 'keep');
  t.is(await removeStaleTemps(path), 1);
  t.deepEqual((await readdir(dir)).sort(), ['.priority.txt.abc123.sync-tmp', 'ban.txt.bak']);
  t.is(await removeStaleTemps(join(dir, 'nowhere', 'ban.txt')), 0);
});
