// Every capability of the service, in the order their routers are tried: the app mounts their
// routers, the worker schedules their jobs and src/deps.ts merges their caches from this one list.
// A router that answers an agent (ingest token) comes before a session router whose paths it
// shares: a router.use() guard runs when one of its router's routes matches, and would answer the
// agent 401 (GET /api/servers/:id/commands/next is a :commandId of the session commands router).
import { accountsCapability } from './accounts/capability.ts';
import { auditCapability } from './audit/capability.ts';
import { authCapability } from './auth/capability.ts';
import { bansCapability } from './bans/capability.ts';
import { chatCapability } from './chat/capability.ts';
import { commandsCapability } from './commands/capability.ts';
import { dataApiCapability } from './data-api/capability.ts';
import { derivedCapability } from './derived/capability.ts';
import { gameFilesCapability } from './game-files/capability.ts';
import { healthCapability } from './health/capability.ts';
import { ingestCapability } from './ingest/capability.ts';
import { limitsCapability } from './limits/capability.ts';
import { metricsCapability } from './metrics/capability.ts';
import { mapsCapability } from './maps/capability.ts';
import { openApiCapability } from './openapi/capability.ts';
import { operatorCapability } from './operator/capability.ts';
import { playersCapability } from './players/capability.ts';
import { queueCapability } from './queue/capability.ts';
import { serversCapability } from './servers/capability.ts';
import { statsCapability } from './stats/capability.ts';
import { storeWebhookCapability } from './store-webhook/capability.ts';
import { trustCapability } from './trust/capability.ts';
import { usersCapability } from './users/capability.ts';
import { webhooksCapability } from './webhooks/capability.ts';

export const capabilities = [
  healthCapability,
  metricsCapability,
  openApiCapability,
  dataApiCapability,
  ingestCapability,
  // Agents' routes under /api/servers (commands to take and answer, bans in force): before servers'.
  commandsCapability,
  bansCapability,
  authCapability,
  usersCapability,
  accountsCapability,
  operatorCapability,
  limitsCapability,
  serversCapability,
  playersCapability,
  auditCapability,
  mapsCapability,
  chatCapability,
  gameFilesCapability,
  queueCapability,
  trustCapability,
  storeWebhookCapability,
  webhooksCapability,
  // No routes.
  statsCapability,
  derivedCapability,
] as const;
