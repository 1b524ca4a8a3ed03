// The memory of recent sequence numbers that tells a resent server message (or command) from a new
// one: repeats are caught, numbers wrap after 255, and packets may come out of order.
import test from 'ava';
import { SeqWindow } from '../../../src/agent/rcon/seq-window.ts';

test('each number of a long run is new once, a repeat right after is not, across many wraps', (t) => {
  const w = new SeqWindow();
  for (let i = 0; i < 1000; i++) {
    t.true(w.add(i & 0xff), `first ${i}`);
    t.false(w.add(i & 0xff), `repeat ${i}`);
    if (i >= 5) t.false(w.add((i - 5) & 0xff), `late repeat of ${i - 5}`);
  }
});

test('out of order: a late first arrival is new, its repeat and the repeats of later ones are not', (t) => {
  const w = new SeqWindow();
  t.true(w.add(254));
  t.true(w.add(1));
  t.true(w.add(255));
  t.true(w.add(0));
  for (const seq of [254, 255, 0, 1]) t.false(w.add(seq));
  t.true(w.has(0) && !w.has(2));
  w.clear();
  t.true(w.add(0), 'a new session numbers from 0 again');
});
