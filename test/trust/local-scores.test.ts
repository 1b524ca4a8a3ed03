// The in-process score cache: a score read from Redis before a drop arrived is never kept after
// it, a dropped player stays dropped however many players were dropped since, and a stale score
// is not answered.
import test from 'ava';
import { LocalScores } from '../../src/trust/local-scores.ts';

const entry = (body: string, staleAtMs = 10_000) => ({ score: { proof: '', body: Buffer.from(body) }, staleAtMs });

test('a score read before a drop of its player arrived is not remembered; one read after it is', (t) => {
  const local = new LocalScores(60_000);
  const mark = local.mark;
  local.drop(['a']);
  local.remember('a', entry('old'), mark);
  t.is(local.get('a', 0), undefined, 'the read was in flight when the drop came: its score may be the old one');
  local.remember('b', entry('b'), mark);
  t.is(local.get('b', 0)?.body.toString(), 'b', 'a drop of another player does not hold this one back');
  local.remember('a', entry('new'), local.mark);
  t.is(local.get('a', 0)?.body.toString(), 'new');
  local.drop(['a']);
  t.is(local.get('a', 0), undefined, 'a drop removes what is remembered');
});

test('a player whose drop was forgotten (more drops than are tracked) is treated as dropped late', (t) => {
  const local = new LocalScores(60_000);
  const mark = local.mark;
  local.drop(['a']);
  local.drop(Array.from({ length: 100_001 }, (_, i) => `filler-${i}`));
  local.drop(['b']); // past the bound: what was tracked is forgotten
  local.remember('a', entry('old'), mark);
  t.is(local.get('a', 0), undefined, 'its drop is forgotten, but a read from before it is still refused');
  local.remember('a', entry('new'), local.mark);
  t.is(local.get('a', 0)?.body.toString(), 'new', 'a read begun after the last drop is kept');
});

test('a score is answered until the service clock reaches its stale time, not after', (t) => {
  const local = new LocalScores(60_000);
  local.remember('a', entry('a', 5000), local.mark);
  t.truthy(local.get('a', 4999));
  t.is(local.get('a', 5000), undefined);
});
