// How a capability describes its routes for the OpenAPI document (next to the routes themselves).
export interface Operation {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** OpenAPI path, e.g. /api/v1/data/servers/{serverId} */
  path: string;
  summary: string;
  tag: string;
  security?: 'apiKey' | 'ingestToken' | 'session' | 'chatSignature' | 'partnerKey' | 'storeSignature';
  pathParams?: Record<string, string>;
  /** $id of a query schema in schemas/ */
  query?: string;
  /** $id of the request body schema */
  body?: string;
  /** status -> [description, $id of the body schema] */
  responses: Record<number, readonly [string, string?]>;
}
