// Who did a change, as the audit log and the records it touches (bans, queue entries) name them:
// the request's user or the chat user a bot acts for, the store, or the service itself.
import type { AppContext } from '../http/context.ts';
import { principalOf } from '../auth/authenticate.ts';

export interface Actor {
  type: 'user' | 'system' | 'chat' | 'store';
  id: string | null;
  name: string | null;
  ip?: string | null;
}

/** The signed-in user (or the chat user a bot acts for). */
export const actorOf = (ctx: AppContext): Actor => {
  const p = principalOf(ctx);
  return { type: p.via === 'chat' ? 'chat' : 'user', id: p.userId, name: p.username, ip: ctx.state.clientIp || null };
};
