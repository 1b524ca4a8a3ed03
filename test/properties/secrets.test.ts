import test from 'ava';
import fc from 'fast-check';
import { createHash } from 'node:crypto';
import { secretHash, secretHashText } from '../../src/accounts/secrets.ts';

// The cache key of a key (secretHashText) and the stored hash (secretHash) must name the same
// SHA-256, or a key resolved from PostgreSQL would be cached under a key no later request finds.
test('secretHashText is the base64 of secretHash, the SHA-256 of the UTF-8 text', (t) => {
  fc.assert(
    fc.property(fc.string({ unit: 'grapheme', maxLength: 200 }), (raw) => {
      const expected = createHash('sha256').update(raw, 'utf8').digest();
      t.deepEqual(secretHash(raw), expected);
      t.is(secretHashText(raw), expected.toString('base64'));
    }),
    { numRuns: 300 },
  );
});
