// Turns every failure into the spec's Error body { error, message, statusCode, requestId }.
// Client mistakes keep their message; anything unexpected becomes a generic 500 and is logged.
import type { ErrorBody } from './schema-types.ts';
import type { Middleware } from 'koa';
import { ApiError } from './errors.ts';
import type { ErrorCode } from './errors.ts';
import type { AppState } from './context.ts';
import type { Log } from '../log.ts';

const codeForStatus: Record<number, ErrorCode> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  501: 'NOT_IMPLEMENTED',
};

// Errors a store raises while it is unreachable: the request fails with 503, not 500.
const unavailableCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', '57P01', '57P03', '53300']);
function isStoreUnavailable(err: { code?: unknown; name?: unknown; message?: unknown }): boolean {
  if (typeof err.code === 'string' && unavailableCodes.has(err.code)) return true;
  if (err.name === 'MaxRetriesPerRequestError') return true;
  const message = typeof err.message === 'string' ? err.message : '';
  return /Command timed out|Connection is closed|Stream isn't writeable|timeout exceeded when trying to connect|Connection terminated/.test(
    message,
  );
}

export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  const e = (typeof err === 'object' && err !== null ? err : {}) as {
    status?: unknown;
    expose?: unknown;
    message?: unknown;
    code?: unknown;
    name?: unknown;
  };
  const status = typeof e.status === 'number' ? e.status : 500;
  const code = codeForStatus[status];
  if (code && e.expose !== false) {
    const message =
      status === 400 && /JSON|Unexpected token|parse/i.test(String(e.message)) ? 'request body is not valid JSON' : String(e.message);
    return new ApiError(code, message);
  }
  if (isStoreUnavailable(e)) return new ApiError('STORE_UNAVAILABLE', 'a data store is unavailable, try again shortly');
  return new ApiError('INTERNAL_ERROR', 'internal error');
}

export function errorMiddleware(log: Log): Middleware<AppState> {
  return async (ctx, next) => {
    try {
      await next();
      // Nothing answered (404), or the router refused the method (405/501) without a body.
      if (ctx.body === undefined && ctx.status >= 400) {
        throw toApiError({ status: ctx.status, expose: true, message: ctx.status === 404 ? 'route not found' : ctx.message });
      }
    } catch (err) {
      const apiError = toApiError(err);
      // Only a failure of the service is an error; a client's method (501), an operator's switch
      // or a rebuild (503) are not, and a store that is away is a warning.
      if (apiError.code === 'INTERNAL_ERROR') log.error({ reqId: ctx.state.requestId, err }, 'request failed');
      else if (apiError.code === 'STORE_UNAVAILABLE') log.warn({ reqId: ctx.state.requestId, err }, 'a store is unavailable');
      ctx.status = apiError.status;
      ctx.set(apiError.headers);
      ctx.body = {
        error: apiError.code,
        message: apiError.message,
        statusCode: apiError.status,
        requestId: ctx.state.requestId,
        ...apiError.extra,
      } satisfies ErrorBody;
    }
  };
}
