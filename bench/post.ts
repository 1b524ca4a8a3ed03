// The bench's POST for its load generators, on kept-alive connections of the bench's own client
// (bench/keep-alive-client.ts: a game server posts from its own machine, so the generator, which
// shares this one's 2 cores with the service, should cost as little CPU as it can).
import { KeepAliveClient, requestBytes } from './keep-alive-client.ts';

export interface Answer {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  text: string;
}

const clients = new Map<string, KeepAliveClient>();

export async function post(url: string, headers: Record<string, string>, body: string | Buffer): Promise<Answer> {
  const target = new URL(url);
  let client = clients.get(target.origin);
  if (!client) clients.set(target.origin, (client = new KeepAliveClient(target.origin)));
  const answer = await client.request(requestBytes('POST', target, headers, Buffer.isBuffer(body) ? body : Buffer.from(body)));
  return { status: answer.status, headers: answer.headers, text: answer.body.toString() };
}
