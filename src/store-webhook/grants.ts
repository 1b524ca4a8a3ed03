// What a store event does to the priority queue, in one transaction with the record of
// its event id, so that a repeat or a concurrent redelivery changes nothing: a purchase grants or
// extends a queue entry per line; a refund or a lost dispute takes back exactly what its purchase
// granted; a refund that arrives first is kept, and its late purchase grants nothing. Every grant
// and revoke is audited with the store's event id.
import type { Core } from '../core.ts';
import type { ServerReadDeps } from '../stats/server-reads.ts';
import type { TrustDeps } from '../trust/lookup.ts';
import { inTransaction } from '../store/db.ts';
import type { Queryable } from '../store/db.ts';
import { ApiError } from '../http/errors.ts';
import { insertAudit } from '../audit/audit.repo.ts';
import type { Actor } from '../audit/actor.ts';
import { mergeOrphanDayzId } from '../bans/bans.ts';
import { operatorAccountId } from '../accounts/account.repo.ts';
import { isSteam64 } from '../identities/id-forms.ts';
import { lockEntryOfScope } from '../queue/queue.repo.ts';
import { UnknownServers, placeQueueEntry, resolveQueueInput, takeBackQueueGrant } from '../queue/queue.ts';
import type { ResolvedQueueInput } from '../queue/queue.ts';
import type { PurchaseLine, StoreEvent } from './events.ts';
import {
  claimStoreEvent,
  insertPurchase,
  lockNewestUnrefunded,
  lockPurchase,
  markRefunded,
  takeWaitingRefund,
} from './store-webhook.repo.ts';

export interface StoreOutcome {
  id: string;
  outcome: 'processed' | 'repeat' | 'ignored';
  granted: number;
  revoked: number;
  refundsAwaitingPurchase: number;
}

type Applicable = Extract<StoreEvent, { kind: 'purchase' | 'refund' | 'ignored' }>;
type Changing = Extract<StoreEvent, { kind: 'purchase' | 'refund' }>;

/** A line with its account and queue input checked outside the transaction. */
interface ResolvedLine extends PurchaseLine {
  accountId: string;
  input: ResolvedQueueInput;
  /** Days the line buys (days x quantity); null = permanent. */
  days: number | null;
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * A purchase line's account and queue input. A grant checks the product's servers against the
 * account; a refund does not (it takes back an entry by its id, also after a server was revoked).
 */
async function resolveLine(
  deps: Core,
  line: PurchaseLine,
  operatorAccount: () => Promise<string | undefined>,
  grants: boolean,
): Promise<ResolvedLine> {
  const accountId = line.product.accountId ?? (await operatorAccount());
  if (!accountId)
    throw new ApiError(
      'UNPROCESSABLE',
      `product ${line.sku} names no accountId and there is no operator account yet (run the setup first)`,
    );
  const days = line.product.days === null ? null : line.product.days * line.quantity;
  try {
    const input = await resolveQueueInput(deps, accountId, {
      platformId: line.platformId,
      serverIds: line.product.servers === 'all' || !grants ? null : line.product.servers,
      ...(days === null ? {} : { durationDays: days }),
    });
    return { ...line, accountId, input, days };
  } catch (err) {
    // The product table names a server the account does not have: the store retries until the operator fixes STORE_PRODUCTS.
    if (err instanceof UnknownServers) throw new ApiError('UNPROCESSABLE', `STORE_PRODUCTS ${line.sku}: ${err.message}`);
    throw err;
  }
}

export async function applyStoreEvent(deps: TrustDeps & ServerReadDeps, event: Applicable): Promise<StoreOutcome> {
  const nowMs = deps.clock.now();
  let operator: Promise<string | undefined> | undefined;
  const operatorAccount = () => (operator ??= operatorAccountId(deps.db));
  const lines =
    event.kind === 'ignored'
      ? []
      : await Promise.all(event.lines.map((line) => resolveLine(deps, line, operatorAccount, event.kind === 'purchase')));
  const actor: Actor = {
    type: 'store',
    id: `${event.source}:${event.id}`.slice(0, 200),
    name: event.source === 'tebex' ? 'Store (Tebex)' : 'Store',
  };
  const apply = () =>
    inTransaction(deps.db, async (tx) => {
      const result: StoreOutcome = { id: event.id, outcome: 'processed', granted: 0, revoked: 0, refundsAwaitingPurchase: 0 };
      if (!(await claimStoreEvent(tx, event.source, event.id, event.type, iso(nowMs)))) return { ...result, outcome: 'repeat' as const };
      if (event.kind === 'ignored') return { ...result, outcome: 'ignored' as const };
      for (const line of lines) {
        if (event.kind === 'purchase') await grantLine(tx, event, line, actor, nowMs, result);
        else await revokeLine(tx, event, line, actor, nowMs, result);
      }
      return result;
    });
  // A purchase and its refund (two event ids) committing at the same moment both found no line and
  // both wrote one: the second fails on the unique line and runs again, now finding the first's.
  const outcome = await apply().catch((err: { code?: string; constraint?: string }) => {
    if (err.code === '23505' && err.constraint === 'store_purchases_ref_idx') return apply();
    throw err;
  });
  if (event.kind === 'purchase') {
    for (const line of lines) if (isSteam64(line.input.platformId)) await mergeOrphanDayzId(deps, line.input.platformId, actor);
  }
  return outcome;
}

async function auditStore(
  tx: Queryable,
  line: ResolvedLine,
  actor: Actor,
  nowMs: number,
  action: string,
  details: Record<string, unknown>,
): Promise<void> {
  await insertAudit(tx, {
    accountId: line.accountId,
    at: iso(nowMs),
    actorType: 'system',
    actorId: actor.id,
    actorName: actor.name,
    action,
    targetType: 'store-purchase',
    targetId: line.sku,
    ip: null,
    details: { platformId: line.input.platformId, ...details },
  });
}

async function grantLine(
  tx: Queryable,
  event: Extract<Changing, { kind: 'purchase' }>,
  line: ResolvedLine,
  actor: Actor,
  nowMs: number,
  result: StoreOutcome,
): Promise<void> {
  const storeDetails = { storeEventId: event.id, purchase: event.purchaseRef, sku: line.sku };
  const known = await lockPurchase(tx, event.source, event.purchaseRef, line.sku, line.input.platformId);
  if (known?.refundedAt)
    return auditStore(tx, line, actor, nowMs, 'store.purchase-refunded', {
      ...storeDetails,
      reason: 'its refund arrived first: nothing granted',
    });
  if (known) return; // the same purchase under another event id: granted once already
  if (event.source === 'own' && (await takeWaitingRefund(tx, event.source, line.accountId, line.input.platformId, line.sku))) {
    return auditStore(tx, line, actor, nowMs, 'store.purchase-refunded', {
      ...storeDetails,
      reason: 'a refund naming no purchase arrived first: nothing granted',
    });
  }
  const before = await lockEntryOfScope(tx, line.accountId, line.input.platformId, line.input.serverIds);
  const { entry, created } = await placeQueueEntry(tx, line.accountId, line.input, actor, nowMs, 'store', storeDetails);
  await insertPurchase(tx, {
    source: event.source,
    purchaseRef: event.purchaseRef,
    sku: line.sku,
    accountId: line.accountId,
    platformId: line.input.platformId,
    purchaseEventId: event.id,
    days: line.days,
    entryId: entry.id,
    entryCreated: created,
    previousExpiresAt: before?.expiresAt ?? null,
    purchasedAt: iso(nowMs),
  });
  result.granted++;
}

async function revokeLine(
  tx: Queryable,
  event: Extract<Changing, { kind: 'refund' }>,
  line: ResolvedLine,
  actor: Actor,
  nowMs: number,
  result: StoreOutcome,
): Promise<void> {
  const storeDetails = { storeEventId: event.id, purchase: event.purchaseRef, sku: line.sku, type: event.type };
  const purchase =
    event.purchaseRef === null
      ? await lockNewestUnrefunded(tx, event.source, line.accountId, line.input.platformId, line.sku)
      : await lockPurchase(tx, event.source, event.purchaseRef, line.sku, line.input.platformId);
  if (purchase?.refundedAt) return; // refunded before (a refund and then a lost dispute of the same payment)
  if (!purchase) {
    await insertPurchase(tx, {
      source: event.source,
      purchaseRef: event.purchaseRef,
      sku: line.sku,
      accountId: line.accountId,
      platformId: line.input.platformId,
      days: line.days,
      refundedAt: iso(nowMs),
      refundEventId: event.id,
    });
    result.refundsAwaitingPurchase++;
    return auditStore(tx, line, actor, nowMs, 'store.refund-before-purchase', storeDetails);
  }
  await markRefunded(tx, purchase.id, iso(nowMs), event.id);
  const grant = {
    entryId: purchase.entryId!,
    days: purchase.days,
    created: purchase.entryCreated ?? false,
    previousExpiresAt: purchase.previousExpiresAt,
  };
  if (await takeBackQueueGrant(tx, grant, actor, nowMs, { ...storeDetails, purchase: purchase.purchaseRef })) result.revoked++;
  else
    await auditStore(tx, line, actor, nowMs, 'store.revoke-nothing-left', { ...storeDetails, reason: 'the queue entry is gone already' });
}
