// Reads a verified store webhook body into what it asks of the queue: a purchase or a
// refund of some lines (a product, the player it is for, how many), or nothing. Tebex products that
// are not in the product table are the shop's other goods and are skipped; an own-format sku that
// is not in it is the sender's mistake.
import { badRequest } from '../http/errors.ts';
import { describeErrors, validatorFor } from '../http/schemas.ts';
import { platformIdKind } from '../identities/id-forms.ts';
import type { StoreProduct, StoreProducts } from '../config/store-products.ts';

/**
 * The product of a sku, if the table has one of its own: a sku a store sends is not trusted to be
 * a plain key (`__proto__` or `constructor` reached Object.prototype and answered 500).
 */
const productOf = (products: StoreProducts, sku: string): StoreProduct | undefined =>
  Object.hasOwn(products, sku) ? products[sku] : undefined;

export type StoreSource = 'tebex' | 'own';

export interface PurchaseLine {
  sku: string;
  product: StoreProduct;
  platformId: string;
  quantity: number;
}

interface Envelope {
  source: StoreSource;
  id: string;
  type: string;
}

export type StoreEvent =
  | (Envelope & { kind: 'validation' })
  | (Envelope & { kind: 'ignored' })
  | (Envelope & { kind: 'purchase'; purchaseRef: string; lines: PurchaseLine[] })
  /** purchaseRef null: an own-format refund naming no purchase (the player's newest of the sku). */
  | (Envelope & { kind: 'refund'; purchaseRef: string | null; lines: PurchaseLine[] });

const tebexGrants = new Set(['payment.completed']);
const tebexRevokes = new Set(['payment.refunded', 'payment.dispute.lost']);

function checked<T>(schemaId: string, value: unknown, where: string): T {
  const validate = validatorFor(schemaId);
  if (!validate(value)) throw badRequest(`${where} ${describeErrors(validate.errors)}`);
  return value as T;
}

interface OwnBody {
  id: string;
  type: 'purchase.completed' | 'purchase.refunded';
  platformId: string;
  sku: string;
  purchaseId?: string;
}

function ownEvent(body: unknown, products: StoreProducts): StoreEvent {
  const e = checked<OwnBody>('store-event-own.json', body, 'body');
  const product = productOf(products, e.sku);
  if (!product) throw badRequest(`body sku "${e.sku}" is not a product of this service's STORE_PRODUCTS`);
  const lines = [{ sku: e.sku, product, platformId: e.platformId, quantity: 1 }];
  if (e.type === 'purchase.completed') return { kind: 'purchase', source: 'own', id: e.id, type: e.type, purchaseRef: e.id, lines };
  return { kind: 'refund', source: 'own', id: e.id, type: e.type, purchaseRef: e.purchaseId ?? null, lines };
}

interface Username {
  id?: string | null;
}
interface TebexPayment {
  transaction_id: string;
  customer?: { username?: Username | null };
  products: { id: number; quantity?: number; username?: Username | null }[];
}

function tebexEvent(body: unknown, products: StoreProducts): StoreEvent {
  const e = checked<{ id: string; type: string; subject: unknown }>('store-event-tebex.json', body, 'body');
  const envelope = { source: 'tebex' as const, id: e.id, type: e.type };
  if (e.type === 'validation.webhook') return { ...envelope, kind: 'validation' };
  const grants = tebexGrants.has(e.type);
  if (!grants && !tebexRevokes.has(e.type)) return { ...envelope, kind: 'ignored' };
  const payment = checked<TebexPayment>('store-payment-tebex.json', e.subject, 'body subject');
  const lines: PurchaseLine[] = [];
  payment.products.forEach((item, i) => {
    const sku = `tebex:${item.id}`;
    const product = productOf(products, sku);
    if (!product) return;
    // The product's own username is the player it was bought for (a gift); else the customer's.
    const platformId = (item.username?.id ?? payment.customer?.username?.id ?? '').trim();
    if (!platformIdKind(platformId)) {
      throw badRequest(
        `body subject.products[${i}] (${sku}) names no player: username.id of the product or the customer must be a Steam64 or another platform id, got "${platformId.slice(0, 40)}"`,
      );
    }
    const same = lines.find((line) => line.sku === sku && line.platformId === platformId);
    if (same) same.quantity += item.quantity ?? 1;
    else lines.push({ sku, product, platformId, quantity: item.quantity ?? 1 });
  });
  if (lines.length === 0) return { ...envelope, kind: 'ignored' };
  const purchaseRef = payment.transaction_id;
  return grants ? { ...envelope, kind: 'purchase', purchaseRef, lines } : { ...envelope, kind: 'refund', purchaseRef, lines };
}

export function storeEventOf(source: StoreSource, body: unknown, products: StoreProducts): StoreEvent {
  return source === 'own' ? ownEvent(body, products) : tebexEvent(body, products);
}
