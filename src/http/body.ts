// JSON request bodies of the controller: parsed by koa-body (size-limited, strict JSON), then
// checked against a schema of schemas/; unknown fields, wrong types and over-long strings are 400s.
import { koaBody } from 'koa-body';
import type { Middleware } from 'koa';
import type { AppContext, AppState } from './context.ts';
import { ApiError, badRequest } from './errors.ts';
import { describeErrors, validatorFor } from './schemas.ts';

export const controllerBodyLimitBytes = 64 * 1024;

const parse = koaBody({ json: true, urlencoded: false, text: false, multipart: false, jsonLimit: controllerBodyLimitBytes, jsonStrict: true });

/** Parses a JSON body; a body of another type is refused with 415. */
export const jsonBody: Middleware<AppState> = async (ctx, next) => {
  if (ctx.request.length && !ctx.is('application/json')) throw new ApiError('UNSUPPORTED_MEDIA_TYPE', 'send application/json');
  await parse(ctx, next);
};

export function bodyOf<T>(schemaId: string): (ctx: AppContext) => T {
  const validate = validatorFor(schemaId);
  return (ctx) => {
    const body: unknown = ctx.request.body ?? {};
    if (!validate(body)) throw badRequest(`body ${describeErrors(validate.errors)}`);
    if (hasNul(body)) throw badRequest('body text must not contain NUL (\\u0000) characters');
    return body as T;
  };
}

/** PostgreSQL text cannot hold U+0000: such a value would fail in the store (a 500), so it is a 400 here. */
export function hasNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (Array.isArray(value)) return value.some(hasNul);
  if (typeof value === 'object' && value !== null) {
    // A loop, not Object.entries: this runs on every field of every ingested event.
    for (const key in value) if (key.includes('\u0000') || hasNul((value as Record<string, unknown>)[key])) return true;
  }
  return false;
}
