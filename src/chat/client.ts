// The reference chat-bot client: signs a call exactly as the service checks it (signature.ts) and
// posts it. Bot authors can use it as it is (`npm run cli -- chat ...`) or copy its few lines.
import { chatSignature } from './signature.ts';

export interface ChatCallOptions {
  /** The service's base URL, e.g. http://127.0.0.1:3000 */
  url: string;
  /** CHAT_SIGNING_SECRET; without it the call goes unsigned (chat-bot role only). */
  secret?: string;
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
export function chatHeaders(secret: string, action: string, chatUserId: string, nowSeconds = Math.floor(Date.now() / 1000)): Record<string, string> {
  const timestamp = String(nowSeconds);
  return { 'X-Chat-Timestamp': timestamp, 'X-Chat-Signature': chatSignature(secret, timestamp, action, chatUserId) };
}

export async function callChatAction(o: ChatCallOptions): Promise<ChatCallAnswer> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (o.secret) Object.assign(headers, chatHeaders(o.secret, o.action, o.chatUserId, o.nowSeconds));
  const res = await fetch(new URL('/api/chat/action', o.url), {
    method: 'POST', headers, body: JSON.stringify({ action: o.action, chatUserId: o.chatUserId, serverId: o.serverId, params: o.params }),
  });
  return { status: res.status, body: (await res.json()) as ChatCallAnswer['body'] };
}
