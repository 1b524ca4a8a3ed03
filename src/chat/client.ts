// The reference chat-bot client: signs a call exactly as the service checks it (signature.ts) with
// the community's bot (its id in X-Chat-Bot, its secret from the dashboard's Chat page) and posts
// it. Bot authors can use it as it is (`npm run cli -- chat ...`) or copy its few lines.
// A signature is accepted once: two identical calls (same action and chat user) in the same second
// carry the same signature, and the second is refused as a replay. This client waits for the next
// second before such a call; a bot of its own must do the same (or not repeat itself).
import { chatSignature } from './signature.ts';

export interface ChatCallOptions {
  /** The service's base URL, e.g. http://127.0.0.1:3000 */
  url: string;
  /** The bot's secret (svcb_...), or CHAT_SIGNING_SECRET for the operator's bot; without it, the call goes unsigned (chat-bot role only). */
  secret?: string;
  /** The bot's id (X-Chat-Bot); none: the operator's bot. */
  botId?: string;
  action: string;
  chatUserId: string;
  serverId?: string;
  params?: Record<string, unknown>;
  /** Unix seconds (default: now). */
  nowSeconds?: number;
}

export interface ChatCallAnswer {
  status: number;
  body: { ok?: boolean; action?: string; result?: { text: string; [field: string]: unknown }; error?: string; message?: string };
}

/** The headers of a signed call. */
export function chatHeaders(
  secret: string,
  action: string,
  chatUserId: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): Record<string, string> {
  const timestamp = String(nowSeconds);
  return { 'X-Chat-Timestamp': timestamp, 'X-Chat-Signature': chatSignature(secret, timestamp, action, chatUserId) };
}

/** The second each (action, chat user) was last signed in, by this process. */
const lastSigned = new Map<string, number>();

/** Now in unix seconds, past the second an identical call was last signed in (its signature would be a replay). */
async function signingSecond(action: string, chatUserId: string): Promise<number> {
  const key = `${action}.${chatUserId}`;
  let now = Date.now();
  if (lastSigned.get(key) === Math.floor(now / 1000)) {
    await new Promise((resolve) => setTimeout(resolve, 1000 - (now % 1000)));
    now = Date.now();
  }
  lastSigned.set(key, Math.floor(now / 1000));
  return Math.floor(now / 1000);
}

export async function callChatAction(o: ChatCallOptions): Promise<ChatCallAnswer> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (o.secret)
    Object.assign(headers, chatHeaders(o.secret, o.action, o.chatUserId, o.nowSeconds ?? (await signingSecond(o.action, o.chatUserId))));
  if (o.secret && o.botId) headers['X-Chat-Bot'] = o.botId;
  const res = await fetch(new URL('/api/chat/action', o.url), {
    method: 'POST',
    headers,
    body: JSON.stringify({ action: o.action, chatUserId: o.chatUserId, serverId: o.serverId, params: o.params }),
  });
  return { status: res.status, body: (await res.json()) as ChatCallAnswer['body'] };
}
