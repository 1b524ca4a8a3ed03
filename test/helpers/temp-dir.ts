// Folders a test makes in the system's temporary folder, removed when the test ends (passed or
// failed), so a run of the suite leaves nothing behind there. A file's hooks cannot register a
// teardown: they take the folder with its removal and call it in test.after.always.
import { mkdtempSync, rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExecutionContext } from 'ava';

/** A fresh folder removed when the test ends. */
export async function tempDir(t: ExecutionContext, prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

export function tempDirSync(t: ExecutionContext, prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** For a file's hooks: the folder and what removes it (call it in test.after.always). */
export async function sharedTempDir(prefix: string): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}
