// Every schema compiles, for bodies and for query strings alike: the service compiles a check at
// its first use, so a schema Ajv refuses (strict mode) fails here rather than in a request.
import test from 'ava';
import { ApiError } from '../../src/http/errors.ts';
import { queryParser, schemas, validatorFor } from '../../src/http/schemas.ts';
import type { SchemaTypes } from '../../src/http/schema-types.ts';

test('every schema compiles as a body check, and every query schema as a query parser', (t) => {
  for (const { $id } of schemas) t.notThrows(() => validatorFor($id)(null), $id);
  const querySchemas = schemas.map((s) => s.$id).filter((id) => id.startsWith('query-'));
  t.true(querySchemas.length > 5);
  for (const id of querySchemas) {
    const parse = queryParser(id as keyof SchemaTypes);
    // A 400 for a query missing what it requires is an answer; anything else thrown is not.
    t.notThrows(() => {
      try {
        parse({});
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
      }
    }, id);
  }
});

test('a check tells what was wrong after a false, and nothing after a true', (t) => {
  const check = validatorFor('error.json');
  t.false(check({ error: 1 }));
  t.true((check.errors?.length ?? 0) > 0);
  t.true(check({ error: 'NOT_FOUND', message: 'm', statusCode: 404, requestId: 'r' }));
  t.falsy(check.errors);
});
