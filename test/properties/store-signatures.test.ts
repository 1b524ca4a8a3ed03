// The store webhook's signature checks and body reader over arbitrary input: they answer, never
// throw; a signature verifies only the exact bytes it was made over.
import test from 'ava';
import fc from 'fast-check';
import { checkOwnSignature, checkTebexSignature, ownSignature, tebexSignature } from '../../src/store-webhook/signatures.ts';
import { storeEventOf } from '../../src/store-webhook/events.ts';
import { ApiError } from '../../src/http/errors.ts';

const secret = 'a-secret-of-the-property-test-0123456789';
const nowMs = Date.parse('2026-11-22T12:00:00Z');
const now = String(nowMs / 1000);
const bytes = fc.uint8Array({ maxLength: 300 });

test('no header, however broken, makes a check throw; only the right signature over the same bytes verifies', (t) => {
  fc.assert(
    fc.property(fc.string({ maxLength: 200 }), bytes, (header, body) => {
      t.false(checkTebexSignature(secret, header, body).ok);
      t.false(checkOwnSignature(secret, header, body, nowMs).ok);
    }),
    { numRuns: 500 },
  );
  fc.assert(
    fc.property(bytes, fc.nat(), fc.integer({ min: 1, max: 255 }), (body, at, flip) => {
      t.true(checkTebexSignature(secret, tebexSignature(secret, body).toUpperCase(), body).ok, 'hex case does not matter');
      t.true(checkOwnSignature(secret, `t=${now},v1=${ownSignature(secret, now, body)}`, body, nowMs).ok);
      if (body.length === 0) return;
      const changed = Uint8Array.from(body);
      changed[at % body.length] = changed[at % body.length]! ^ flip;
      t.false(checkTebexSignature(secret, tebexSignature(secret, body), changed).ok);
      t.false(checkOwnSignature(secret, `t=${now},v1=${ownSignature(secret, now, body)}`, changed, nowMs).ok);
    }),
    { numRuns: 300 },
  );
});

test('any JSON value as a body is an event or a 400, never another error', (t) => {
  const products = { vip: { days: 1, servers: 'all' as const }, 'tebex:7': { days: null, servers: 'all' as const } };
  fc.assert(
    fc.property(fc.jsonValue(), fc.constantFrom('tebex' as const, 'own' as const), (body, source) => {
      try {
        storeEventOf(source, body, products);
      } catch (err) {
        t.true(err instanceof ApiError && err.status === 400, String(err));
      }
    }),
    { numRuns: 500 },
  );
  fc.assert(
    fc.property(
      fc.record({
        id: fc.string(),
        type: fc.constantFrom('payment.completed', 'payment.refunded'),
        subject: fc.record({
          transaction_id: fc.string(),
          products: fc.array(fc.record({ id: fc.constantFrom(7, 8), username: fc.option(fc.record({ id: fc.option(fc.string()) })) })),
        }),
      }),
      (body) => {
        try {
          storeEventOf('tebex', body, products);
        } catch (err) {
          t.true(err instanceof ApiError && err.status === 400, String(err));
        }
      },
    ),
    { numRuns: 300 },
  );
});
