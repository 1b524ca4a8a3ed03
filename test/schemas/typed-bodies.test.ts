// bodyOf and queryParser are typed by the schema's file name alone (checked by `npm run typecheck`,
// which covers test/): a type argument of the caller's own, or a file that is no schema, fails.
import test from 'ava';
import { bodyOf } from '../../src/http/body.ts';
import { queryParser } from '../../src/http/schemas.ts';
import type { BanCreate, SchemaTypes } from '../../src/http/schema-types.ts';

test('a body reader is typed by its schema, with the fields Ajv fills from defaults present', (t) => {
  const ban: ReturnType<ReturnType<typeof bodyOf<'ban-create.json'>>> = { platformId: '76561198000000001' };
  const asSchema: BanCreate = ban;
  const restart: ReturnType<ReturnType<typeof bodyOf<'server-restart.json'>>>['delaySeconds'] = 300;
  const page = queryParser('query-queue.json')({});
  const limit: number = page.limit;
  t.is(asSchema.platformId, '76561198000000001');
  t.is(restart, 300);
  t.is(limit, 50, 'the default is filled in');
});

test("a type of the caller's own, or a file that is no schema, does not typecheck", (t) => {
  // Never called: the calls are here for the compiler to refuse.
  const refused = [
    // @ts-expect-error a type argument is no longer the caller's to choose
    () => bodyOf<{ anything: string }>('ban-create.json'),
    // @ts-expect-error no schema has this file name
    () => bodyOf('no-such-schema.json'),
    // @ts-expect-error nor this one
    () => queryParser('query-nothing.json'),
  ];
  const names: (keyof SchemaTypes)[] = ['ban-create.json', 'limits.json'];
  t.is(refused.length, 3);
  t.is(names.length, 2);
});
