// The ctx.state of every request: its id, and the client's address and scheme for limits, cookies
// and audit, each worked out on first use, so requests that never ask (the Data API) pay nothing.
// A class rather than getters defined per request: this runs on every request of every route.
import type { IncomingMessage } from 'node:http';
import type { Middleware } from 'koa';
import { clientAddress, isHttps } from './client.ts';
import type { ProxyTrust } from './client.ts';

/**
 * Who is calling, as the capability that proved it adds it (the Data API its key, the controller
 * its principal): each declares its field by merging into this interface from its own module, so
 * this plumbing names no capability.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface RequestCaller {}

// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type
export interface RequestState extends RequestCaller {}

// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class RequestState {
  requestId = '';
  #clientIp?: string;
  #https?: boolean;

  constructor(
    private readonly req: IncomingMessage,
    private readonly trust: ProxyTrust,
  ) {}

  /** The client's address (see http/client.ts for when X-Forwarded-For counts). */
  get clientIp(): string {
    return (this.#clientIp ??= clientAddress(this.req, this.trust));
  }

  get https(): boolean {
    return (this.#https ??= isHttps(this.req, this.trust));
  }
}

/** The first middleware: every later one and every route sees a RequestState. */
export function requestState(trust: ProxyTrust): Middleware<RequestState> {
  return (ctx, next) => {
    ctx.state = new RequestState(ctx.req, trust);
    return next();
  };
}
