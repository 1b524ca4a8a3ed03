// The player a profile route names: its `:identifier` in any id form, resolved to the id the
// service keeps the player under, and what the signed-in user's account knows of them. A player is
// answered when the account's servers saw them, the account holds a record of them (a ban, a queue
// entry, a note, a watch flag), or the network knows them (play anywhere, or a pool entry); else 404.
import type { Core } from '../core.ts';
import { badRequest, notFound } from '../http/errors.ts';
import { classifyIdentifier, dayzIdOf, isSteam64 } from '../identities/id-forms.ts';
import { resolvePlatformId } from '../identities/resolve.ts';
import { liveServerIdsOf } from '../servers/server.repo.ts';
import { findTrustPlayer, platformIdOf } from '../trust/player.repo.ts';
import { hasAccountRecords } from './players.repo.ts';
import { seenByAccount } from './search.repo.ts';

export interface AccountPlayer {
  accountId: string;
  /** The id the service keeps the player under. */
  platformId: string;
  /** The ids the account's records of the player may be kept under: the platform id, and a Steam64's DayZ ID. */
  recordIds: string[];
  /** The account's live servers. */
  serverIds: string[];
  seenByAccount: boolean;
  /** Seen, or a record of the account names the player: its view may show what other communities linked. */
  knownToAccount: boolean;
  /** The trust lookup answers for the player (seen on some server, or a pool entry). */
  knownToNetwork: boolean;
}

export const identifierHelp =
  'identifier is not a Steam64 (7656119...), STEAM_X:Y:Z, DayZ ID, BattlEye GUID, console id, service UUID or chat user id (discord:<snowflake>)';

/** 400 when the identifier is no id form, 404 when it names no player the account may see. */
export async function accountPlayer(deps: Core, accountId: string, identifier: string): Promise<AccountPlayer> {
  const id = classifyIdentifier(identifier, deps.clock.now());
  if (!id) throw badRequest(identifierHelp);
  const named = await platformIdOf(deps.db, id.kind, id.value);
  if (named === undefined) throw notFound('player');
  const platformId = await resolvePlatformId(deps.db, named);
  const recordIds = isSteam64(platformId) ? [platformId, dayzIdOf(platformId)] : [platformId];
  const [serverIds, seen, hasRecords, network] = await Promise.all([
    liveServerIdsOf(deps.db, accountId),
    seenByAccount(deps.db, accountId, platformId),
    hasAccountRecords(deps.db, accountId, recordIds),
    findTrustPlayer(deps.db, id.kind, id.value),
  ]);
  const knownToNetwork = network !== undefined;
  if (!seen && !hasRecords && !knownToNetwork) throw notFound('player');
  return { accountId, platformId, recordIds, serverIds, seenByAccount: seen, knownToAccount: seen || hasRecords, knownToNetwork };
}
