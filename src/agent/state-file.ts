// The agent's state file: how far each log file has been read and acknowledged by the service.
// Written atomically (src/store/atomic-write.ts), so a crash leaves the old state or the new one,
// never half of one. A state an earlier version kept elsewhere (beside the logs) is read once and
// then removed, so an upgrade does not send every log again.
import { mkdir, readFile, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { writeAtomically } from '../store/atomic-write.ts';

export interface AgentState {
  version: 1;
  serverId: string;
  /** File name -> byte offset up to which every line has been sent and acknowledged. */
  files: Record<string, number>;
}

/** The text of a file, or undefined when there is none. */
async function readIfThere(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** The state at `path`, else the one at `legacyPath` (an earlier version's place), else a fresh one. */
export async function loadState(path: string, serverId: string, legacyPath?: string): Promise<AgentState> {
  const text = (await readIfThere(path)) ?? (legacyPath ? await readIfThere(legacyPath) : undefined);
  if (text === undefined) return { version: 1, serverId, files: {} };
  let state: Partial<AgentState>;
  try {
    state = JSON.parse(text) as Partial<AgentState>;
  } catch {
    // Unreadable (edited by hand): starting over is safe, the event ids make every line count once.
    state = {};
  }
  // Another server's state would skip lines this server never received: start over instead.
  if (
    state === null ||
    typeof state !== 'object' ||
    state.version !== 1 ||
    state.serverId !== serverId ||
    typeof state.files !== 'object' ||
    state.files === null
  )
    return { version: 1, serverId, files: {} };
  const files: Record<string, number> = {};
  for (const [name, offset] of Object.entries(state.files)) if (Number.isSafeInteger(offset) && offset >= 0) files[name] = offset;
  return { version: 1, serverId, files };
}

// Saved after every acknowledged batch: the folder is not synced each time (see writeAtomically).
export const saveState = (path: string, state: AgentState) =>
  writeAtomically(path, `${JSON.stringify(state, null, 1)}\n`, { syncFolder: false });

/** The state's folder, made when missing (a user's state folder may not exist yet). */
export const prepareStateFolder = (path: string) => mkdir(dirname(path), { recursive: true });

/** Removes the earlier version's state once the state is saved in its own place. */
export const removeLegacyState = (legacyPath: string) => rm(legacyPath, { force: true });
