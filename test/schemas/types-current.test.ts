// src/http/schema-types.ts is what the generator makes from schemas/ now: a schema changed without
// `npm run schemas:types` (or the types file edited by hand) fails here, not in a caller's cast.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { schemas } from '../../src/http/schemas.ts';
import { generateSchemaTypes, schemaTypesFile } from '../../scripts/schema-types.ts';

test('the checked-in schema types are what the generator makes from schemas/', async (t) => {
  const made = await generateSchemaTypes();
  t.is(readFileSync(schemaTypesFile, 'utf8'), made, 'run npm run schemas:types and commit src/http/schema-types.ts');
});

test('the generator makes the same text twice', async (t) => {
  t.is(await generateSchemaTypes(), await generateSchemaTypes());
});

test('every schema has its type in SchemaTypes, by file name', async (t) => {
  const made = await generateSchemaTypes();
  const map = /export interface SchemaTypes \{([\s\S]*?)\n\}/.exec(made)?.[1] ?? '';
  t.regex(map, /'ban-create\.json': BanCreate;/);
  t.regex(map, /'error\.json': ErrorBody;/);
  t.deepEqual(
    [...map.matchAll(/'([a-z0-9-]+\.json)':/g)].map((m) => m[1]),
    schemas.map((s) => s.$id),
  );
});
