// Writes src/http/schema-types.ts, the TypeScript types of every schema in schemas/ (`npm run schemas:types`);
// test/schemas/types-current.test.ts fails while the checked-in file is not what this makes now.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { compile } from 'json-schema-to-typescript';
import type { JSONSchema } from 'json-schema-to-typescript';
import { schemas } from '../src/http/schemas.ts';
import type { JsonSchema } from '../src/http/schemas.ts';

export const schemaTypesFile = new URL('../src/http/schema-types.ts', import.meta.url);

// A title that names a global of TypeScript's lib would shadow it wherever the type is imported.
const typeNames: Record<string, string> = { Error: 'ErrorBody' };
const typeName = (schema: JsonSchema) => typeNames[schema.title] ?? schema.title;

const pascal = (key: string) => key.replace(/(^|[-_])(\w)/g, (_, _sep: string, c: string) => c.toUpperCase());

/**
 * A branch that only says which fields must (not) be present ("platformId or banId, not both")
 * has nothing a type can say; the generator would make it an index signature that admits any field.
 */
const presenceOnly = (branches: unknown) =>
  Array.isArray(branches) &&
  branches.every((b) => typeof b === 'object' && b !== null && Object.keys(b).every((k) => k === 'required' || k === 'not'));

/**
 * One schema as a definition of the combined schema: references to another file point at its
 * definition, a file's own #/$defs at their place under it, and a definition without a title is
 * named after its schema (BanRecordActor), so two files' `actor`s do not become Actor and Actor1.
 */
function definition(schema: JsonSchema, byId: Map<string, JsonSchema>): JSONSchema {
  const rewrite = (value: unknown, path: string[]): unknown => {
    if (Array.isArray(value)) return value.map((v, i) => rewrite(v, [...path, String(i)]));
    if (typeof value !== 'object' || value === null) return value;
    const out: Record<string, unknown> = {};
    const inProperties = path.at(-1) === 'properties';
    for (const [k, v] of Object.entries(value)) {
      if (inProperties) {
        out[k] = rewrite(v, [...path, k]);
        continue;
      }
      if (k === '$id' || k === '$schema' || k === 'not' || ((k === 'oneOf' || k === 'anyOf') && presenceOnly(v))) continue;
      if (k === '$ref' && typeof v === 'string') {
        const target = byId.get(v);
        if (!v.startsWith('#/') && !target) throw new Error(`${schema.$id}: no schema ${v}`);
        out.$ref = target ? `#/$defs/${typeName(target)}` : `#/$defs/${typeName(schema)}/${v.slice(2)}`;
      } else out[k] = rewrite(v, [...path, k]);
    }
    if (path.length === 0) out.title = typeName(schema);
    if (path.length === 2 && path[0] === '$defs' && !('title' in out) && !('$ref' in out)) out.title = typeName(schema) + pascal(path[1]!);
    return out;
  };
  return rewrite(schema, []) as JSONSchema;
}

/** The module text: every schema's type and SchemaTypes, the map from file name to type. */
export async function generateSchemaTypes(): Promise<string> {
  const byId = new Map(schemas.map((s) => [s.$id, s]));
  const root: JSONSchema = {
    title: 'SchemaTypes',
    description: 'Each schema of schemas/ by its file name: bodyOf and queryParser take their type from it.',
    type: 'object',
    properties: Object.fromEntries(schemas.map((s) => [s.$id, { $ref: `#/$defs/${typeName(s)}` }])),
    required: schemas.map((s) => s.$id),
    additionalProperties: false,
    $defs: Object.fromEntries(schemas.map((s) => [typeName(s), definition(s, byId)])),
  };
  const body = await compile(root, 'SchemaTypes', {
    bannerComment: '',
    // Arrays stay T[]: minItems and maxItems as tuples help no caller and refuse a plain list.
    ignoreMinAndMaxItems: true,
    style: { singleQuote: true, printWidth: 140 },
  });
  return (
    '// The types of the JSON Schemas in schemas/, made by scripts/schema-types.ts\n' +
    '// (npm run schemas:types): change a schema, then run it; never edit this file by hand.\n\n' +
    body +
    defaultsOf(schemas)
  );
}

/**
 * SchemaDefaults: each schema's top-level fields with a default. Ajv fills them in (useDefaults),
 * so a value that passed its schema has them although the type above says optional.
 */
function defaultsOf(all: JsonSchema[]): string {
  const lines = all.map((s) => {
    const properties = (s.properties ?? {}) as Record<string, { default?: unknown }>;
    const names = Object.keys(properties)
      .filter((k) => properties[k]!.default !== undefined)
      .map((k) => `'${k}'`);
    return `  '${s.$id}': ${names.length ? names.join(' | ') : 'never'};`;
  });
  return (
    `\n/**\n * Each schema's top-level fields that have a default: a value that passed the schema has them.\n */\n` +
    `export interface SchemaDefaults {\n${lines.join('\n')}\n}\n`
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(schemaTypesFile, await generateSchemaTypes());
}
