// /api/players: the account's player search and a player's profile (servers.read), the account's
// private notes about a player (read: servers.read; add, remove: bans.manage) and its watch flag
// (bans.manage). Notes and the flag are moderation, as bans are: the roles that ban (moderator,
// admin, owner) write them, and every role that reads the servers reads them.
import Router from '@koa/router';
import type { AppContext, AppState } from '../http/context.ts';
import { notFound } from '../http/errors.ts';
import { bodyOf, jsonBody } from '../http/body.ts';
import { queryParser } from '../http/schemas.ts';
import { isUuid } from '../http/uuid.ts';
import { authenticate, principalOf, requirePermission } from '../auth/authenticate.ts';
import { actorOf } from '../audit/actor.ts';
import type { TrustDeps } from '../trust/lookup.ts';
import type { PlayerNote, PlayerNoteList, PlayerProfile, PlayerSearch, PlayerWatch } from '../http/schema-types.ts';
import { accountPlayer } from './player.ts';
import { playerProfile } from './profile.ts';
import { searchPlayers } from './search.ts';
import { addNote, noteView, removeNote, unwatchPlayer, watchPlayer, watchView } from './notes.ts';
import { notesOf } from './notes.repo.ts';

const searchQuery = queryParser('query-player-search.json');
const noteBody = bodyOf('player-note-create.json');

export function playersRouter(deps: TrustDeps): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/api/players', sensitive: true });
  router.use(authenticate(deps), requirePermission('servers.read'));
  const manage = requirePermission('bans.manage');
  const playerOf = (ctx: AppContext) => accountPlayer(deps, principalOf(ctx).accountId, ctx.params.identifier!);

  router.get('/', async (ctx) => {
    const { q, limit } = searchQuery(ctx.query);
    ctx.body = (await searchPlayers(deps, principalOf(ctx).accountId, q, limit)) satisfies PlayerSearch;
  });

  router.get('/:identifier', async (ctx) => {
    ctx.body = (await playerProfile(deps, await playerOf(ctx), principalOf(ctx))) satisfies PlayerProfile;
  });

  router.get('/:identifier/notes', async (ctx) => {
    const player = await playerOf(ctx);
    const notes = await notesOf(deps.db, player.accountId, player.platformId);
    ctx.body = { platformId: player.platformId, notes: notes.map(noteView) } satisfies PlayerNoteList;
  });

  router.post('/:identifier/notes', manage, jsonBody, async (ctx) => {
    const { body } = noteBody(ctx);
    const note = await addNote(deps, await playerOf(ctx), body, actorOf(ctx));
    ctx.status = 201;
    ctx.body = noteView(note) satisfies PlayerNote;
  });

  router.delete('/:identifier/notes/:noteId', manage, async (ctx) => {
    const player = await playerOf(ctx);
    const noteId = ctx.params.noteId!;
    if (!isUuid(noteId) || !(await removeNote(deps, player, noteId, actorOf(ctx)))) throw notFound('note');
    ctx.status = 204;
  });

  router.post('/:identifier/watch', manage, async (ctx) => {
    const player = await playerOf(ctx);
    ctx.body = watchView(player.platformId, await watchPlayer(deps, player, actorOf(ctx))) satisfies PlayerWatch;
  });

  router.delete('/:identifier/watch', manage, async (ctx) => {
    const player = await playerOf(ctx);
    await unwatchPlayer(deps, player, actorOf(ctx));
    ctx.body = watchView(player.platformId, undefined) satisfies PlayerWatch;
  });

  return router;
}
