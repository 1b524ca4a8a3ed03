// JSON request bodies: parsed by koa-body (size-limited, strict JSON), their text normalised
// (src/http/text.ts), then checked against a schema of schemas/; unknown fields, wrong types and
// over-long strings are 400s.
import { koaBody } from 'koa-body';
import type { Middleware } from 'koa';
import type { AppContext, AppState } from './context.ts';
import { ApiError, badRequest } from './errors.ts';
import { describeErrors, validatorFor } from './schemas.ts';
import type { Checked } from './schemas.ts';
import type { SchemaTypes } from './schema-types.ts';
import { normaliseJsonText } from './text.ts';

export const controllerBodyLimitBytes = 64 * 1024;

/**
 * koa-body for JSON with a size limit. An error of the parser without an HTTP status is the
 * body's own fault (a gzip, deflate or br body that does not decode): 400, not 500.
 */
export function jsonParser(limitBytes: number): Middleware<AppState> {
  const parse = koaBody({ json: true, urlencoded: false, text: false, multipart: false, jsonLimit: limitBytes, jsonStrict: true });
  return async (ctx, next) => {
    let parsed = false;
    await parse(ctx, () => {
      parsed = true;
      return next();
    }).catch((err: { status?: unknown }) => {
      if (parsed || typeof err.status === 'number') throw err;
      throw badRequest('request body could not be decoded as its Content-Encoding says');
    });
  };
}

const parse = jsonParser(controllerBodyLimitBytes);

/** Parses a JSON body; a body of another type is refused with 415. */
export const jsonBody: Middleware<AppState> = async (ctx, next) => {
  if (ctx.request.length && !ctx.is('application/json')) throw new ApiError('UNSUPPORTED_MEDIA_TYPE', 'send application/json');
  await parse(ctx, next);
};

/** A body reader for a schema of schemas/: its type comes from the file name (SchemaTypes), never from the caller. */
export function bodyOf<K extends keyof SchemaTypes>(schemaId: K): (ctx: AppContext) => Checked<K> {
  const validate = validatorFor(schemaId);
  return (ctx) => {
    const body: unknown = ctx.request.body ?? {};
    const problem = normaliseJsonText(body);
    if (problem) throw badRequest(`body ${problem}`);
    if (!validate(body)) throw badRequest(`body ${describeErrors(validate.errors)}`);
    return body as Checked<K>;
  };
}
