// The CLI's commands that call the service over HTTP (chat, trust mirror): a call that never reached
// it (nothing listening, an unknown host, a timeout, a URL that is none) is said in one line naming
// the URL and why, never as fetch's stack.

const reasons: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'the connection was reset',
  ENOTFOUND: 'no such host',
  EAI_AGAIN: 'the host name could not be resolved',
  ETIMEDOUT: 'timed out',
  UND_ERR_CONNECT_TIMEOUT: 'timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ERR_INVALID_URL: 'not a URL',
  UND_ERR_SOCKET: 'the connection was closed',
};

/** The one line for a call that did not reach the service at `url`; undefined for any other error. */
export function unreachableLine(err: unknown, url: string): string | undefined {
  if (!(err instanceof TypeError)) return undefined;
  const { code, cause } = err as TypeError & { code?: string; cause?: { code?: string; message?: string } };
  const known = reasons[cause?.code ?? ''] ?? reasons[code ?? ''];
  // fetch fails with a TypeError whose cause says why; other TypeErrors are the program's own.
  if (!known && err.message !== 'fetch failed') return undefined;
  return `cannot reach the service at ${url}: ${known ?? cause?.message ?? err.message}`;
}
