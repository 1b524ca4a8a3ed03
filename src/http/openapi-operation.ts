// How a capability describes its routes for the OpenAPI document (next to the routes themselves).
import type { SchemaTypes } from '../http/schema-types.ts';

/** A file of schemas/: a name that is none fails typecheck, not the document's build at start. */
type SchemaId = keyof SchemaTypes;

export interface Operation {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** OpenAPI path, e.g. /api/v1/data/servers/{serverId} */
  path: string;
  summary: string;
  tag: string;
  security?: 'apiKey' | 'ingestToken' | 'session' | 'chatSignature' | 'partnerKey' | 'storeSignature';
  pathParams?: Record<string, string>;
  /** $id of a query schema in schemas/ */
  query?: SchemaId;
  /** $id of the request body schema */
  body?: SchemaId;
  /** status -> [description, $id of the body schema] */
  responses: Record<number, readonly [string, SchemaId?]>;
}
