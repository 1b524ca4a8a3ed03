// The agent's state file: how far each log file has been read and acknowledged by the service.
// Written atomically (src/store/atomic-write.ts), so a crash leaves the old state or the new one,
// never half of one.
import { readFile } from 'node:fs/promises';
import { writeAtomically } from '../store/atomic-write.ts';

export interface AgentState {
  version: 1;
  serverId: string;
  /** File name -> byte offset up to which every line has been sent and acknowledged. */
  files: Record<string, number>;
}

export async function loadState(path: string, serverId: string): Promise<AgentState> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, serverId, files: {} };
    throw err;
  }
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
