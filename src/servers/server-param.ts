// The `:id` of a /api/servers route, if it is a live server of the signed-in user's account:
// anything else (malformed, unknown, revoked, another account's) is the same 404.
import type { AppContext } from '../http/context.ts';
import { notFound } from '../http/errors.ts';
import { isUuid } from '../http/uuid.ts';
import { principalOf } from '../auth/authenticate.ts';
import { liveServerOwner } from './server.ts';
import type { ServerOwnerDeps } from './server.ts';

export async function accountServerId(deps: ServerOwnerDeps, ctx: AppContext): Promise<string> {
  const id = ctx.params.id!;
  if (!isUuid(id) || (await liveServerOwner(deps, id)) !== principalOf(ctx).accountId) throw notFound('server');
  return id;
}
