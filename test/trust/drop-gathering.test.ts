// Drops of trust scores asked in one task go together, before the task's Redis commands leave,
// and each caller's promise waits for the drop that carries its players.
import test from 'ava';
import { DropGathering } from '../../src/trust/drop-gathering.ts';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/** A drop that records what it was given and finishes when told to. */
function recordingDrop() {
  const calls: { ids: string[]; finish: () => void }[] = [];
  const drop = (ids: string[]) => new Promise<void>((resolve) => calls.push({ ids, finish: resolve }));
  return { calls, drop };
}

test('the players of every add() in one task go in one drop, each once; every caller waits for it to finish', async (t) => {
  const { calls, drop } = recordingDrop();
  const gathering = new DropGathering(drop);
  const settled: string[] = [];
  const a = gathering.add(['p1', 'p2']).then(() => settled.push('a'));
  const b = gathering.add(new Set(['p2', 'p3'])).then(() => settled.push('b'));
  t.is(calls.length, 0, 'nothing is dropped within the turn that asks');
  await nextTurn();
  t.deepEqual(
    calls.map((c) => c.ids),
    [['p1', 'p2', 'p3']],
  );
  await nextTurn();
  t.deepEqual(settled, [], 'no caller goes on before the drop finished');
  calls[0]!.finish();
  await Promise.all([a, b]);
  t.deepEqual(settled.sort(), ['a', 'b']);
});

test('an add() made while a drop is under way goes in the next drop, not in that one', async (t) => {
  const { calls, drop } = recordingDrop();
  const gathering = new DropGathering(drop);
  const first = gathering.add(['p1']);
  await nextTurn();
  let secondSettled = false;
  const second = gathering.add(['p2']).then(() => (secondSettled = true));
  await nextTurn();
  t.deepEqual(
    calls.map((c) => c.ids),
    [['p1'], ['p2']],
  );
  calls[0]!.finish();
  await first;
  await nextTurn();
  t.false(secondSettled, 'the second caller waits for its own drop');
  calls[1]!.finish();
  await second;
  t.true(secondSettled);
});

test('the drop is asked before the callbacks the task scheduled with setImmediate, where ioredis writes its pipeline', async (t) => {
  const order: string[] = [];
  // As a batch's derived state does: a command issued first schedules the pipeline's write.
  setImmediate(() => order.push('write of the pipeline'));
  const gathering = new DropGathering(async () => {
    order.push('drop');
  });
  const asked = gathering.add(['p1']);
  await nextTurn();
  await asked;
  t.deepEqual(order, ['drop', 'write of the pipeline'], 'the drop joins the commands waiting for that write');
});
