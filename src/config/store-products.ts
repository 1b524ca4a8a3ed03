// The store's product table (STORE_PRODUCTS, docs/api.md): a sku of the own format, or
// tebex:<product id>, mapped to the queue grant it buys. Read and checked once at start: a table
// that does not parse stops the start with a message naming the problem.
import { describeErrors, validatorFor } from '../http/schemas.ts';

export interface StoreProduct {
  /** The account whose queue it grants; undefined = the operator's account. */
  accountId?: string;
  /** Days of queue per unit bought; null = permanent. */
  days: number | null;
  /** 'all' servers of the account, or these server ids. */
  servers: 'all' | string[];
}

export type StoreProducts = Record<string, StoreProduct>;

const productKey = /^(?:tebex:[0-9]{1,20}|[A-Za-z0-9._-]{1,100})$/;

export function storeProductsFrom(text: string | undefined): { products: StoreProducts; problems: string[] } {
  if (text === undefined) return { products: {}, problems: [] };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    return { products: {}, problems: [`STORE_PRODUCTS: not JSON (${(err as Error).message})`] };
  }
  const validate = validatorFor('store-products.json');
  const badKey = typeof parsed === 'object' && parsed !== null ? Object.keys(parsed).find((key) => !productKey.test(key)) : undefined;
  if (badKey !== undefined)
    return {
      products: {},
      problems: [`STORE_PRODUCTS: "${badKey.slice(0, 60)}" is neither a sku (letters, digits, . _ -) nor tebex:<product id>`],
    };
  if (!validate(parsed)) return { products: {}, problems: [`STORE_PRODUCTS: ${describeErrors(validate.errors)}`] };
  const products = parsed as StoreProducts;
  for (const product of Object.values(products)) {
    if (product.accountId) product.accountId = product.accountId.toLowerCase();
    if (Array.isArray(product.servers)) product.servers = product.servers.map((id) => id.toLowerCase());
  }
  return { products, problems: [] };
}
