// A community's webhook endpoints: saved with their destination checked (https, public addresses,
// each address its name resolves to) and their servers the account's own; changed, paused and
// resumed, deleted; a standard endpoint's secret shown once at creation and rotation. Every change
// is audited in its transaction, with the URL's origin only (a Discord webhook URL's path is its
// token) and never a secret.
import type { Core } from '../core.ts';
import type { AppContext } from '../http/context.ts';
import type { Webhook as WebhookAnswer, WebhookCreate, WebhookUpdate } from '../http/schema-types.ts';
import { badRequest } from '../http/errors.ts';
import { inTransaction } from '../store/db.ts';
import { auditAction } from '../audit/audit.ts';
import { principalOf } from '../auth/authenticate.ts';
import { liveServerIdsOf } from '../servers/server.repo.ts';
import { DestinationRefused, checkedAddresses, refusedUrl, systemResolver } from './destination.ts';
import type { Resolver } from './destination.ts';
import { deleteEndpoint, findEndpoint, insertEndpoint, rotateEndpointSecret, updateEndpoint } from './endpoint.repo.ts';
import type { Endpoint, EndpointChange } from './endpoint.repo.ts';
import { queueForEndpoint } from './outbox.repo.ts';
import { testEventType } from './events.ts';
import { endpointSecret, rotationOverlapMs } from './signing.ts';

const iso = (ms: number) => new Date(ms).toISOString();

export interface EndpointDeps extends Core {
  /** Name lookups (tests give their own); the system's otherwise. */
  resolve?: Resolver;
}

export const endpointView = (e: Endpoint, waiting: number): WebhookAnswer => ({
  id: e.id,
  url: e.url,
  format: e.format,
  events: e.events,
  serverIds: e.serverIds,
  mentionRoleId: e.mentionRoleId,
  paused: e.pausedAt !== null,
  pausedAt: e.pausedAt,
  pausedReason: e.pausedReason,
  pausedBy: e.pausedBy,
  failingSince: e.failingSince,
  nextAttemptAt: e.pausedAt === null ? e.retryAt : null,
  waiting,
  previousSecretValidUntil: e.previousSecretValidUntil,
  createdAt: e.createdAt,
  updatedAt: e.updatedAt,
});

/** A URL's origin: what the audit keeps of it. */
const originOf = (url: string) => new URL(url).origin;

/** 400 with the reason when the URL may not be a destination: its form, then every address its name resolves to now. */
export async function checkDestination(deps: EndpointDeps, url: string): Promise<void> {
  const rules = { allowPrivate: deps.config.webhooks.allowPrivate };
  const refused = refusedUrl(url, rules);
  if (refused) throw badRequest(`body ${refused}`);
  const host = new URL(url).hostname.replace(/^\[(.*)\]$/, '$1');
  try {
    await checkedAddresses(host, rules, deps.resolve ?? systemResolver);
  } catch (err) {
    if (err instanceof DestinationRefused) throw badRequest(`body url is refused: ${err.message}`);
    throw badRequest(`body url's host ${host} could not be resolved (${(err as NodeJS.ErrnoException).code ?? 'lookup failed'})`);
  }
}

/** 400 for a role to mention on an endpoint that is not Discord's: nothing there could mention it. */
function checkMention(format: Endpoint['format']): void {
  if (format !== 'discord') throw badRequest('body mentionRoleId: only a discord endpoint mentions a role');
}

/** 400 unless every server named is a live server of the account; the ids lower-cased, sorted. */
async function checkServers(deps: Core, accountId: string, serverIds: string[] | null | undefined): Promise<string[] | null> {
  if (!serverIds) return null;
  const ids = [...new Set(serverIds.map((id) => id.toLowerCase()))].sort();
  const live = new Set(await liveServerIdsOf(deps.db, accountId));
  const unknown = ids.filter((id) => !live.has(id));
  if (unknown.length > 0) throw badRequest(`body serverIds: no such server in the account: ${unknown.join(', ')}`);
  return ids;
}

export async function createEndpoint(
  deps: EndpointDeps,
  ctx: AppContext,
  input: WebhookCreate,
): Promise<{ endpoint: Endpoint; secret?: string }> {
  const accountId = principalOf(ctx).accountId;
  await checkDestination(deps, input.url);
  const serverIds = await checkServers(deps, accountId, input.serverIds);
  const mentionRoleId = input.mentionRoleId ?? null;
  if (mentionRoleId !== null) checkMention(input.format);
  return inTransaction(deps.db, async (tx) => {
    const endpoint = await insertEndpoint(
      tx,
      accountId,
      { url: input.url, format: input.format, events: input.events, serverIds, mentionRoleId },
      iso(deps.clock.now()),
    );
    await auditAction(
      deps,
      ctx,
      {
        action: 'webhook.create',
        target: { type: 'webhook', id: endpoint.id },
        details: { origin: originOf(endpoint.url), format: endpoint.format, events: endpoint.events, serverIds, mentionRoleId },
      },
      tx,
    );
    if (endpoint.format !== 'standard') return { endpoint };
    return { endpoint, secret: endpointSecret(deps.config.webhooks.secretKey, endpoint.id, endpoint.secretGeneration) };
  });
}

/** Undefined when the account has no such endpoint. */
export async function changeEndpoint(deps: EndpointDeps, ctx: AppContext, id: string, patch: WebhookUpdate): Promise<Endpoint | undefined> {
  const accountId = principalOf(ctx).accountId;
  const change: EndpointChange = {};
  if (patch.url !== undefined) {
    await checkDestination(deps, patch.url);
    change.url = patch.url;
  }
  if (patch.events !== undefined) change.events = patch.events;
  if ('serverIds' in patch) change.serverIds = await checkServers(deps, accountId, patch.serverIds);
  if (patch.paused !== undefined) change.paused = patch.paused;
  if ('mentionRoleId' in patch) change.mentionRoleId = patch.mentionRoleId ?? null;
  return inTransaction(deps.db, async (tx) => {
    if (change.mentionRoleId) {
      const found = await findEndpoint(tx, accountId, id, true);
      if (!found) return undefined;
      checkMention(found.format);
    }
    const endpoint = await updateEndpoint(tx, accountId, id, change, iso(deps.clock.now()));
    if (!endpoint) return undefined;
    await auditAction(
      deps,
      ctx,
      {
        action: 'webhook.update',
        target: { type: 'webhook', id },
        details: {
          changed: Object.keys(change),
          ...(change.url ? { origin: originOf(change.url) } : {}),
          ...(change.events ? { events: change.events } : {}),
          ...('serverIds' in change ? { serverIds: change.serverIds } : {}),
          ...(change.paused !== undefined ? { paused: change.paused } : {}),
          ...('mentionRoleId' in change ? { mentionRoleId: change.mentionRoleId } : {}),
        },
      },
      tx,
    );
    return endpoint;
  });
}

export async function removeEndpoint(deps: Core, ctx: AppContext, id: string): Promise<boolean> {
  return inTransaction(deps.db, async (tx) => {
    const removed = await deleteEndpoint(tx, principalOf(ctx).accountId, id);
    if (removed) await auditAction(deps, ctx, { action: 'webhook.delete', target: { type: 'webhook', id } }, tx);
    return removed;
  });
}

/**
 * A new secret, shown once; the one before keeps signing for 24 h. Undefined when the account has
 * no such endpoint; a Discord endpoint has no secret (400).
 */
export async function rotateSecret(deps: Core, ctx: AppContext, id: string): Promise<{ endpoint: Endpoint; secret: string } | undefined> {
  const accountId = principalOf(ctx).accountId;
  const nowMs = deps.clock.now();
  return inTransaction(deps.db, async (tx) => {
    const found = await findEndpoint(tx, accountId, id, true);
    if (!found) return undefined;
    if (found.format !== 'standard') throw badRequest('a discord endpoint has no secret: Discord does not verify signatures');
    const endpoint = (await rotateEndpointSecret(tx, accountId, id, iso(nowMs), iso(nowMs + rotationOverlapMs)))!;
    await auditAction(
      deps,
      ctx,
      {
        action: 'webhook.rotate-secret',
        target: { type: 'webhook', id },
        details: { previousValidUntil: endpoint.previousSecretValidUntil },
      },
      tx,
    );
    return { endpoint, secret: endpointSecret(deps.config.webhooks.secretKey, endpoint.id, endpoint.secretGeneration) };
  });
}

/** Queues a test event behind the endpoint's others; its id, or undefined when the account has no such endpoint. */
export async function queueTestEvent(deps: Core, ctx: AppContext, id: string): Promise<string | undefined> {
  const endpoint = await findEndpoint(deps.db, principalOf(ctx).accountId, id);
  if (!endpoint) return undefined;
  const nowIso = iso(deps.clock.now());
  return queueForEndpoint(
    deps.db,
    endpoint.id,
    { type: testEventType, data: { endpointId: endpoint.id, message: `A test event from ${principalOf(ctx).username}.` } },
    nowIso,
  );
}
