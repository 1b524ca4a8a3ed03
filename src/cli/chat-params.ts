// The chat command's `--param key=value` pairs, typed by the action's params schema
// (schemas/chat-params-*.json): a value stays text unless the schema makes that param an integer,
// a number or a boolean. A Steam64 or a Discord id is never turned into a number that loses its
// last digits, and a reason made of digits is still a reason.
import { chatActions } from '../chat/actions.ts';
import { schemas } from '../http/schemas.ts';
import type { JsonSchema } from '../http/schemas.ts';

type PropertySchema = { type?: string | string[]; $ref?: string };

const schemaById = (id: string): JsonSchema | undefined => schemas.find((s) => s.$id === id);

/** The JSON types the action's schema admits for a param; empty when it names none (unknown action or param). */
export function paramTypes(action: string, key: string): string[] {
  const paramsId = Object.hasOwn(chatActions, action) ? chatActions[action]!.params : undefined;
  const properties = (paramsId ? schemaById(paramsId)?.properties : undefined) as Record<string, PropertySchema> | undefined;
  let property = properties && Object.hasOwn(properties, key) ? properties[key] : undefined;
  if (property?.$ref) property = schemaById(property.$ref) as PropertySchema | undefined;
  const type = property?.type;
  return type === undefined ? [] : Array.isArray(type) ? type : [type];
}

const numberText = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?$/;

/** One value as the action's schema types it; text wherever the schema admits text or says nothing. */
export function typedParam(action: string, key: string, text: string): unknown {
  const types = paramTypes(action, key);
  if (types.length === 0 || types.includes('string')) return text;
  const number = Number(text);
  if ((types.includes('integer') || types.includes('number')) && numberText.test(text) && Number.isFinite(number)) {
    // An integer beyond what a double holds exactly would change: it is left as typed, for the service to refuse.
    if (!Number.isInteger(number) || Number.isSafeInteger(number)) return number;
  }
  if (types.includes('boolean') && (text === 'true' || text === 'false')) return text === 'true';
  return text;
}

/** Every `key=value` given, typed by the action's schema. */
export function typedParams(action: string, given: Record<string, string>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(given).map(([key, text]) => [key, typedParam(action, key, text)]));
}
