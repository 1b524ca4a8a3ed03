// The chat command's --param values typed by the action's params schema: text stays text (ids keep
// every digit), a schema's integer becomes a number, anything the schema does not know stays text.
import test from 'ava';
import fc from 'fast-check';
import { paramTypes, typedParam, typedParams } from '../../src/cli/chat-params.ts';

test("each param takes its type from the action's schema", (t) => {
  t.deepEqual(typedParams('ban.create', { platformId: '76561198000000042', reason: '123', durationMinutes: '1440' }), {
    platformId: '76561198000000042',
    reason: '123',
    durationMinutes: 1440,
  });
  t.deepEqual(typedParams('queue.add', { platformId: '76561198000000042', durationDays: '30' }), {
    platformId: '76561198000000042',
    durationDays: 30,
  });
  t.deepEqual(typedParams('trust.lookup', { identifier: '175928847299117063' }), { identifier: '175928847299117063' });
  t.deepEqual(paramTypes('ban.create', 'platformId'), ['string'], 'a $ref is followed to its schema');
  // Not numbers the schema can take: left as typed, for the service to name the mistake.
  t.is(typedParam('ban.create', 'durationMinutes', 'a day'), 'a day');
  t.is(typedParam('ban.create', 'durationMinutes', '99999999999999999999'), '99999999999999999999');
  // An action or param the schemas do not know: text.
  t.is(typedParam('no.such.action', 'x', '12'), '12');
  t.is(typedParam('ban.create', 'unknown', '12'), '12');
  t.is(typedParam('server.status', 'x', '12'), '12');
  t.is(typedParam('constructor', 'x', '12'), '12');
});

test('property: a text param comes back exactly as typed; an integer param is the number its digits say', (t) => {
  fc.assert(
    fc.property(
      fc.string(),
      (text) => typedParam('ban.create', 'reason', text) === text && typedParam('ban.create', 'platformId', text) === text,
    ),
  );
  fc.assert(fc.property(fc.integer({ min: -1e9, max: 1e9 }), (n) => typedParam('ban.create', 'durationMinutes', String(n)) === n));
  t.pass();
});
