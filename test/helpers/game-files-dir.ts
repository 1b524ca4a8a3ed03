// GAME_FILES_DIR for tests: a fresh folder of the test's own (its real path, so what the service
// resolves and what the test expects agree), removed when the test or the file's tests end.
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExecutionContext } from 'ava';

export async function makeGameFilesDir(prefix = 'game-files-'): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), prefix)));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** A folder removed when the test ends. */
export async function gameFilesDirFor(t: ExecutionContext, prefix?: string): Promise<string> {
  const { dir, remove } = await makeGameFilesDir(prefix);
  t.teardown(remove);
  return dir;
}
