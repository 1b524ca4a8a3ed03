// An account's private notes about a player and its watch flag: each change is audited in its
// transaction (player.note.add, player.note.remove, player.watch, player.unwatch). The audit
// entry of a note names it and its length, never its text.
import type { Core } from '../core.ts';
import type { Actor } from '../audit/actor.ts';
import { insertAudit } from '../audit/audit.repo.ts';
import { ApiError } from '../http/errors.ts';
import type { PlayerNote, PlayerWatch } from '../http/schema-types.ts';
import { inTransaction } from '../store/db.ts';
import type { Queryable } from '../store/db.ts';
import type { AccountPlayer } from './player.ts';
import { countNotes, deleteNote, insertNote, lockPlayerNotes } from './notes.repo.ts';
import type { NoteRow } from './notes.repo.ts';
import { deleteWatch, insertWatch, watchOf } from './watch.repo.ts';
import type { WatchRow } from './watch.repo.ts';

/** Notes an account keeps about one player; one more is refused (409): a list that long is read by no one. */
export const maxNotesPerPlayer = 200;

const iso = (ms: number) => new Date(ms).toISOString();

async function audit(db: Queryable, player: AccountPlayer, actor: Actor, atIso: string, action: string, details: Record<string, unknown>) {
  await insertAudit(db, {
    accountId: player.accountId,
    at: atIso,
    actorType: actor.type === 'store' ? 'system' : actor.type,
    actorId: actor.id,
    actorName: actor.name,
    action,
    targetType: 'player',
    targetId: player.platformId,
    ip: actor.ip ?? null,
    details,
  });
}

export async function addNote(deps: Core, player: AccountPlayer, body: string, actor: Actor): Promise<NoteRow> {
  const nowIso = iso(deps.clock.now());
  return inTransaction(deps.db, async (tx) => {
    await lockPlayerNotes(tx, player.accountId, player.platformId);
    if ((await countNotes(tx, player.accountId, player.platformId)) >= maxNotesPerPlayer) {
      throw new ApiError('CONFLICT', `the account keeps at most ${maxNotesPerPlayer} notes about a player: remove one first`);
    }
    const note = await insertNote(tx, player.accountId, player.platformId, body, { id: actor.id, name: actor.name }, nowIso);
    await audit(tx, player, actor, nowIso, 'player.note.add', { noteId: note.id, length: body.length });
    return note;
  });
}

/** Removes a note; undefined when the account has no such note about the player. */
export async function removeNote(deps: Core, player: AccountPlayer, noteId: string, actor: Actor): Promise<NoteRow | undefined> {
  const nowIso = iso(deps.clock.now());
  return inTransaction(deps.db, async (tx) => {
    const removed = await deleteNote(tx, player.accountId, player.platformId, noteId);
    if (removed) await audit(tx, player, actor, nowIso, 'player.note.remove', { noteId });
    return removed;
  });
}

/** Sets the watch flag (audited when it changes); setting it again keeps who set it first. */
export async function watchPlayer(deps: Core, player: AccountPlayer, actor: Actor): Promise<WatchRow | undefined> {
  const nowIso = iso(deps.clock.now());
  return inTransaction(deps.db, async (tx) => {
    const set = await insertWatch(tx, player.accountId, player.platformId, { id: actor.id, name: actor.name }, nowIso);
    if (set) await audit(tx, player, actor, nowIso, 'player.watch', {});
    return set ?? (await watchOf(tx, player.accountId, player.platformId));
  });
}

/** Clears the watch flag (audited when it was set). */
export async function unwatchPlayer(deps: Core, player: AccountPlayer, actor: Actor): Promise<void> {
  const nowIso = iso(deps.clock.now());
  await inTransaction(deps.db, async (tx) => {
    if (await deleteWatch(tx, player.accountId, player.platformId)) await audit(tx, player, actor, nowIso, 'player.unwatch', {});
  });
}

export const noteView = (n: NoteRow): PlayerNote => ({
  id: n.id,
  platformId: n.platformId,
  body: n.body,
  createdBy: n.createdById || n.createdByName ? { id: n.createdById, name: n.createdByName } : null,
  createdAt: n.createdAt,
});

export const watchView = (platformId: string, w: WatchRow | undefined): PlayerWatch => ({
  platformId,
  watched: w !== undefined,
  watchedAt: w?.watchedAt ?? null,
  watchedBy: w && (w.watchedById || w.watchedByName) ? { id: w.watchedById, name: w.watchedByName } : null,
});
