// Assembles the OpenAPI 3.1 document from the JSON Schemas in schemas/ and the operations each
// capability declares; built once, at start.
import { schemas } from '../http/schemas.ts';
import type { JsonSchema } from '../http/schemas.ts';
import type { Operation } from '../http/openapi-operation.ts';
import { dataApiOperations } from '../data-api/openapi.ts';
import { ingestOperations } from '../ingest/openapi.ts';
import { healthOperations } from '../health/openapi.ts';
import { metricsOperations } from '../metrics/openapi.ts';
import { controllerOperations } from './controller.ts';
import { openApiOperations } from './openapi.ts';
import { banOperations } from '../bans/openapi.ts';
import { gameFileOperations } from '../game-files/openapi.ts';
import { queueOperations } from '../queue/openapi.ts';
import { commandOperations } from '../commands/openapi.ts';
import { chatOperations } from '../chat/openapi.ts';
import { trustPublicOperations } from '../trust/openapi.ts';
import { storeWebhookOperations } from '../store-webhook/openapi.ts';
import { serverViewOperations } from '../servers/views.openapi.ts';
import { limitsOperations } from '../limits/openapi.ts';
import { playerOperations } from '../players/openapi.ts';
import { webhookOperations } from '../webhooks/openapi.ts';

export const operations: Operation[] = [
  ...healthOperations,
  ...metricsOperations,
  ...openApiOperations,
  ...dataApiOperations,
  ...ingestOperations,
  ...controllerOperations,
  ...chatOperations,
  ...banOperations,
  ...gameFileOperations,
  ...queueOperations,
  ...commandOperations,
  ...serverViewOperations,
  ...playerOperations,
  ...trustPublicOperations,
  ...storeWebhookOperations,
  ...limitsOperations,
  ...webhookOperations,
];

const byId = new Map(schemas.map((s) => [s.$id, s]));
const ref = (id: string) => ({ $ref: `#/components/schemas/${byId.get(id)!.title}` });

/** Turns a schema file into a component: no $id/$schema, references into components. */
function component(schema: JsonSchema): Record<string, unknown> {
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (typeof value !== 'object' || value === null) return value;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (k === '$id' || k === '$schema') continue;
      if (k === '$ref' && typeof v === 'string') {
        out.$ref = v.startsWith('#/') ? `#/components/schemas/${schema.title}/${v.slice(2)}` : ref(v).$ref;
      } else out[k] = rewrite(v);
    }
    return out;
  };
  return rewrite(schema) as Record<string, unknown>;
}

function parameters(op: Operation) {
  const params: Record<string, unknown>[] = Object.entries(op.pathParams ?? {}).map(([name, description]) => ({
    name,
    in: 'path',
    required: true,
    description,
    schema: { type: 'string' },
  }));
  const query = op.query ? byId.get(op.query) : undefined;
  for (const [name, schema] of Object.entries((query?.properties ?? {}) as Record<string, { description?: string }>)) {
    const { description, ...rest } = schema;
    params.push({ name, in: 'query', required: false, ...(description ? { description } : {}), schema: rest });
  }
  return params;
}

const securityOf = {
  apiKey: [{ bearerApiKey: [] }, { headerApiKey: [] }],
  ingestToken: [{ ingestToken: [] }],
  session: [{ sessionCookie: [] }, { sessionBearer: [] }],
  // Unsigned calls run too, with the chat-bot role only: the empty requirement says so.
  chatSignature: [{ chatBot: [], chatTimestamp: [], chatSignature: [] }, { chatTimestamp: [], chatSignature: [] }, {}],
  partnerKey: [{ bearerPartnerKey: [] }, { headerPartnerKey: [] }],
  storeSignature: [{ tebexSignature: [] }, { storeSignature: [] }],
};

function operationObject(op: Operation) {
  const responses = Object.fromEntries(
    Object.entries(op.responses).map(([status, [description, schema]]) => [
      status,
      { description, ...(schema ? { content: { 'application/json': { schema: ref(schema) } } } : {}) },
    ]),
  );
  return {
    summary: op.summary,
    tags: [op.tag],
    operationId: `${op.method}${op.path.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ?? '').toUpperCase())}`,
    ...(op.security ? { security: securityOf[op.security] } : {}),
    parameters: parameters(op),
    ...(op.body ? { requestBody: { required: true, content: { 'application/json': { schema: ref(op.body) } } } } : {}),
    responses,
  };
}

export function buildOpenApiDocument() {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of operations) (paths[op.path] ??= {})[op.method] = operationObject(op);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Game-server data, trust and controller API',
      version: '1.0.0',
      description:
        'Data API (read-only, API-key scoped to one account), game-server ingestion, and the controller API under /api (session login, users, accounts, servers, API keys, audit).',
    },
    servers: [{ url: '/' }],
    paths,
    components: {
      schemas: Object.fromEntries(schemas.filter((s) => !s.$id.startsWith('query-')).map((s) => [s.title, component(s)])),
      securitySchemes: {
        bearerApiKey: { type: 'http', scheme: 'bearer', description: 'Data API key (svc_...)' },
        headerApiKey: { type: 'apiKey', in: 'header', name: 'X-Service-Api-Key' },
        ingestToken: { type: 'http', scheme: 'bearer', description: "a server's ingest token (svci_...)" },
        sessionCookie: {
          type: 'apiKey',
          in: 'cookie',
          name: 'auth-token',
          description: 'set by login; unsafe methods must echo the csrf-token cookie in X-CSRF-Token',
        },
        sessionBearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'the token returned by login' },
        chatTimestamp: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Chat-Timestamp',
          description: 'unix seconds; 300 s either way of the service clock',
        },
        bearerPartnerKey: { type: 'http', scheme: 'bearer', description: 'partner key of the trust export (svcp_...)' },
        headerPartnerKey: { type: 'apiKey', in: 'header', name: 'x-service-partner-key' },
        chatBot: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Chat-Bot',
          description: "the id of the community's chat bot that signs the call (none: the operator's bot, CHAT_SIGNING_SECRET)",
        },
        chatSignature: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Chat-Signature',
          description:
            'sha256=<hex HMAC-SHA256(the bot\'s secret, "timestamp.action.chatUserId")>; each signature is accepted once (two identical calls in one second are one signature: the second is a replay)',
        },
        tebexSignature: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Signature',
          description: 'Tebex: hex HMAC-SHA256(TEBEX_WEBHOOK_SECRET, hex SHA-256 of the raw body)',
        },
        storeSignature: {
          type: 'apiKey',
          in: 'header',
          name: 'X-Store-Signature',
          description: 't=<unix seconds>,v1=<hex HMAC-SHA256(STORE_WEBHOOK_SECRET, "t.body")>; 300 s tolerance; several v1 allowed',
        },
      },
    },
  };
}
