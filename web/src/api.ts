// Calls to the service from the browser: the session cookie goes along, every unsafe method echoes
// the csrf-token cookie in X-CSRF-Token, and every failure becomes one sentence a person can act on
// (never the raw error body).

/** A failed call, already put in words. */
export class ApiFailure extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
    /** Seconds to wait before trying again (429, 503), when the service said. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'ApiFailure';
  }
}

const unsafe = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Told when a call finds the session gone (signed out elsewhere, expired), so the app shows sign-in. */
let onSignedOut: () => void = () => undefined;
export const whenSignedOut = (handler: () => void) => {
  onSignedOut = handler;
};

export function csrfToken(): string {
  const match = /(?:^|;\s*)csrf-token=([^;]*)/.exec(document.cookie);
  return match ? decodeURIComponent(match[1]!) : '';
}

/** "45 seconds", "1 minute", "5 minutes", "1 hour 10 minutes". */
export function waitInWords(seconds: number): string {
  const s = Math.max(1, Math.ceil(seconds));
  const unit = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  if (s < 60) return unit(s, 'second');
  if (s < 3600) {
    const m = Math.floor(s / 60);
    const rest = s % 60;
    return rest === 0 || m >= 10 ? unit(Math.round(s / 60), 'minute') : `${unit(m, 'minute')} ${unit(rest, 'second')}`;
  }
  const h = Math.floor(s / 3600);
  const m = Math.round((s % 3600) / 60);
  return m === 0 ? unit(h, 'hour') : `${unit(h, 'hour')} ${unit(m, 'minute')}`;
}

const sentence = (text: string) => {
  const t = text
    .trim()
    .replace(/^body /, '')
    .replace(/^query parameter /, '');
  if (!t) return '';
  const s = t[0]!.toUpperCase() + t.slice(1);
  return /[.!?]$/.test(s) ? s : `${s}.`;
};

interface ErrorBody {
  error?: unknown;
  message?: unknown;
  requestId?: unknown;
  retryAfter?: unknown;
}

/** The words for a failed answer. */
export function describeFailure(status: number, body: ErrorBody, retryAfterHeader: string | null): ApiFailure {
  const code = typeof body.error === 'string' ? body.error : `HTTP_${status}`;
  const message = typeof body.message === 'string' ? body.message : '';
  const fromHeader = retryAfterHeader !== null ? Number(retryAfterHeader) : NaN;
  const retryAfter = Number.isFinite(fromHeader) ? fromHeader : typeof body.retryAfter === 'number' ? body.retryAfter : undefined;
  const requestId = typeof body.requestId === 'string' ? body.requestId : '';
  const words = (() => {
    switch (code) {
      case 'INVALID_CREDENTIALS':
        return 'Wrong username or password.';
      case 'UNAUTHORIZED':
        return 'You are signed out. Sign in again to continue.';
      case 'csrf-mismatch':
        return 'The page lost its security token (the session changed in another tab). Reload the page and try again.';
      case 'FORBIDDEN':
        return 'Your role does not allow this. Ask an owner of your community.';
      case 'RATE_LIMITED': {
        const wait = retryAfter !== undefined ? ` Try again in ${waitInWords(retryAfter)}.` : ' Wait a little and try again.';
        return /sign-ins/.test(message)
          ? `Too many failed sign-ins for this username from your address.${wait}`
          : `Too many requests from your address.${wait}`;
      }
      case 'REBUILDING':
        return `These statistics are being rebuilt right now. Try again in ${waitInWords(retryAfter ?? 5)}.`;
      case 'STORE_UNAVAILABLE':
        return 'A data store of the service is unavailable right now. Try again in a moment.';
      case 'DATA_API_DISABLED':
        return 'The operator has turned the Data API off on this service.';
      default:
        if (status >= 500)
          return `Something went wrong on the service. Try again; if it keeps failing, give the operator this request id: ${requestId || 'none'}.`;
        return sentence(message) || `The service refused the request (status ${status}).`;
    }
  })();
  return new ApiFailure(words, status, code, retryAfter);
}

/** Calls the service; resolves with the parsed body (undefined for 204), rejects with an ApiFailure. */
export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (unsafe.has(method)) headers['X-CSRF-Token'] = csrfToken();
  let res: Response;
  try {
    res = await fetch(path, { method, headers, credentials: 'same-origin', body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new ApiFailure('The service could not be reached. Check the connection and try again.', 0, 'NETWORK');
  }
  if (res.status === 204) return undefined as T;
  const parsed = (await res.json().catch(() => ({}))) as unknown;
  if (res.ok) return parsed as T;
  const failure = describeFailure(res.status, typeof parsed === 'object' && parsed !== null ? parsed : {}, res.headers.get('Retry-After'));
  // A session that ended while the page was open (not a wrong password at sign-in).
  if (failure.code === 'UNAUTHORIZED') onSignedOut();
  throw failure;
}

/** A query string from the defined values. */
export function query(params: Record<string, string | number | undefined | null>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  const text = q.toString();
  return text ? `?${text}` : '';
}
