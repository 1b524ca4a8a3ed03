// Chat users' roles, one JSON file per account (<CHAT_ROLES_DIR>/<accountId>.json, holding
// { "<chatUserId>": "<role>" }), so a community maps only its own chat users. Reads follow the
// file: it is re-read whenever its modification time or size changes (an admin may edit it by
// hand). Writes re-read the file and replace it atomically under a Redis lock, so two web
// processes changing mappings at once never lose one. An unreadable file or an unknown role means
// the built-in chat-bot role: a mistake in the file never grants more.
import { mkdir, readFile, stat } from 'node:fs/promises';
import { writeAtomically } from '../store/atomic-write.ts';
import { join, resolve } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import type { Core } from '../core.ts';
import { roles } from '../auth/permissions.ts';
import type { Role } from '../auth/permissions.ts';
import { ApiError } from '../http/errors.ts';
import { withJobLock } from '../store/job-lock.ts';

export type ChatRole = Role | 'chat-bot';
export const chatRoles: readonly ChatRole[] = [...roles, 'chat-bot'];

const cache = new Map<string, { mtimeMs: number; size: number; roles: Record<string, ChatRole> }>();

const fileOf = (deps: Core, accountId: string) => join(resolve(deps.config.chat.rolesDir), `${accountId}.json`);

function parseRoles(deps: Core, file: string, text: string): Record<string, ChatRole> {
  try {
    const parsed = JSON.parse(text) as unknown;
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
    const out: Record<string, ChatRole> = {};
    for (const [chatUserId, role] of Object.entries(parsed)) if (chatRoles.includes(role as ChatRole)) out[chatUserId] = role as ChatRole;
    return out;
  } catch (err) {
    deps.log.warn({ err, file }, 'chat roles file unreadable: every chat user of the account has the chat-bot role');
    return {};
  }
}

/** The account's mappings as the file holds them now. */
export async function chatRoleMappings(deps: Core, accountId: string): Promise<Record<string, ChatRole>> {
  const file = fileOf(deps, accountId);
  const info = await stat(file).catch(() => undefined);
  if (!info) return {};
  const cached = cache.get(file);
  if (cached && cached.mtimeMs === info.mtimeMs && cached.size === info.size) return cached.roles;
  const roles = parseRoles(deps, file, await readFile(file, 'utf8'));
  cache.set(file, { mtimeMs: info.mtimeMs, size: info.size, roles });
  return roles;
}

export async function chatRoleOf(deps: Core, accountId: string, chatUserId: string): Promise<ChatRole> {
  return (await chatRoleMappings(deps, accountId))[chatUserId] ?? 'chat-bot';
}

/**
 * Sets (or, with null, removes) a mapping; returns the role it had before, or undefined. Waits up
 * to 5 s for another process's change of the same file.
 */
export async function setChatRole(deps: Core, accountId: string, chatUserId: string, role: ChatRole | null): Promise<ChatRole | undefined> {
  const file = fileOf(deps, accountId);
  for (let waitedMs = 0; waitedMs < 5000; waitedMs += 50) {
    const done = await withJobLock(deps.redis, `chat-roles:${accountId}`, 10_000, async () => {
      const current = parseRoles(deps, file, await readFile(file, 'utf8').catch(() => '{}'));
      const before = current[chatUserId];
      if (role === null) delete current[chatUserId];
      else current[chatUserId] = role;
      await mkdir(resolve(deps.config.chat.rolesDir), { recursive: true });
      await writeAtomically(file, `${JSON.stringify(current, null, 2)}\n`, { mode: 0o600 });
      return { before };
    });
    if (done) return done.before;
    await delay(50);
  }
  throw new ApiError('STORE_UNAVAILABLE', 'the chat roles file is being changed by another process; try again');
}
