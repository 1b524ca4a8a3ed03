// Loads the JSON Schemas in schemas/ once and compiles validators from them (Ajv, 2020-12 dialect).
// The same files build the OpenAPI document and check responses in the tests.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import * as addFormatsModule from 'ajv-formats';
import { badRequest } from './errors.ts';
import { projectPath } from '../project-root.ts';
import type { SchemaDefaults, SchemaTypes } from './schema-types.ts';

// ajv-formats is CommonJS: Node puts the plugin on `default`, and so does Deno.
const addFormats = addFormatsModule.default as unknown as typeof addFormatsModule.default.default;

const schemaDir = projectPath('schemas');

export type JsonSchema = Record<string, unknown> & { $id: string; title: string };

/** A value that passed schemas/<K>: its type, with the fields Ajv filled from their defaults present. */
export type Checked<K extends keyof SchemaTypes> = SchemaTypes[K] &
  Required<Pick<SchemaTypes[K], SchemaDefaults[K] & keyof SchemaTypes[K]>>;

export const schemas: JsonSchema[] = readdirSync(schemaDir)
  .filter((file) => file.endsWith('.json'))
  .sort()
  .map((file) => JSON.parse(readFileSync(join(schemaDir, file), 'utf8')) as JsonSchema);

function createAjv(coerceTypes: boolean): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: false, coerceTypes, useDefaults: true, discriminator: true, strict: true, strictRequired: false });
  addFormats(ajv);
  for (const schema of schemas) ajv.addSchema(schema);
  return ajv;
}

const bodies = createAjv(false);
// Query strings arrive as text: this instance turns "25" into 25 and fills defaults.
const queries = createAjv(true);

/** A schema's check: true or false, and after a false, what was wrong (as Ajv reports it). */
export type SchemaCheck = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };

/**
 * The check of a schema, compiled by Ajv at its first use rather than here: each process compiles
 * the checks it uses. Routes ask for theirs when they are built, and compiling every one of them
 * took a third of what a process spent loading the service (each test process loads it anew).
 */
export const validatorFor = (id: string): SchemaCheck => {
  if (!bodies.schemas[id]) throw new Error(`no schema ${id}`);
  let compiled: ValidateFunction | undefined;
  const check: SchemaCheck = (data) => {
    compiled ??= bodies.getSchema(id)!;
    const valid = compiled(data);
    check.errors = compiled.errors;
    return valid;
  };
  return check;
};

export function describeErrors(errors: ErrorObject[] | null | undefined): string {
  const first = errors?.[0];
  if (!first) return 'is invalid';
  const where = first.instancePath ? first.instancePath.slice(1).replaceAll('/', '.') : 'value';
  if (first.keyword === 'additionalProperties') return `${where} has an unknown field "${String(first.params.additionalProperty)}"`;
  // A value that fits none of a field's alternatives (ts: a date-time or epoch milliseconds) is told
  // every alternative, not the first one's complaint alone ("ts must be string" for 1.5).
  const choice = errors.find(
    (e) =>
      (e.keyword === 'oneOf' || e.keyword === 'anyOf') &&
      e.instancePath === first.instancePath &&
      first.schemaPath.startsWith(`${e.schemaPath}/`),
  );
  const told = choice
    ? errors.filter((e) => e.instancePath === first.instancePath && e.schemaPath.startsWith(`${choice.schemaPath}/`))
    : [first];
  return `${where} ${[...new Set(told.map(complaint))].join(' or ')}`;
}

const complaint = (e: ErrorObject): string => {
  const allowed = e.params && 'allowedValues' in e.params ? `: ${(e.params.allowedValues as unknown[]).join(', ')}` : '';
  return `${e.message ?? 'is invalid'}${allowed}`;
};

/** Returns a query-string parser for a schema: typed (by the schema's file name) values with defaults, or a 400. */
export function queryParser<K extends keyof SchemaTypes>(id: K): (query: Record<string, unknown>) => Checked<K> {
  if (!queries.schemas[id]) throw new Error(`no schema ${id}`);
  let validate: ValidateFunction | undefined; // compiled at first use, as validatorFor's
  return (query) => {
    validate ??= queries.getSchema(id)!;
    const copy: Record<string, unknown> = { ...query };
    if (!validate(copy)) throw badRequest(`query parameter ${describeErrors(validate.errors)}`);
    // Ajv coerces "Infinity" and "1e400" to Infinity, yet checks integer and range on the text, so they pass.
    const infinite = Object.keys(copy).find((k) => typeof copy[k] === 'number' && !Number.isFinite(copy[k]));
    if (infinite !== undefined) throw badRequest(`query parameter ${infinite} must be a finite number`);
    return copy as Checked<K>;
  };
}
