// The in-process score cache: a score read from Redis before a drop arrived is never kept after
// it, a read begun after the drop is, and a stale score is not answered.
import test from 'ava';
import { LocalScores } from '../../src/trust/local-scores.ts';

const entry = (body: string, staleAtMs = 10_000) => ({ score: { proof: '', body: Buffer.from(body) }, staleAtMs });

test('a score read before a drop of its player arrived is not remembered; one read after it is', (t) => {
  const local = new LocalScores(60_000);
  const readA = local.beginRead('a');
  const readB = local.beginRead('b');
  local.drop(['a']);
  local.endRead('a', readA, entry('old'));
  t.is(local.get('a', 0), undefined, 'the read was in flight when the drop came: its score may be the old one');
  local.endRead('b', readB, entry('b'));
  t.is(local.get('b', 0)?.body.toString(), 'b', 'a drop of another player does not hold this one back');
  local.endRead('a', local.beginRead('a'), entry('new'));
  t.is(local.get('a', 0)?.body.toString(), 'new');
  local.drop(['a']);
  t.is(local.get('a', 0), undefined, 'a drop removes what is remembered');
});

test('reads of one player side by side: a drop marks each read under way, and none begun after it', (t) => {
  const local = new LocalScores(60_000);
  const first = local.beginRead('a');
  const second = local.beginRead('a');
  local.drop(['a']);
  const third = local.beginRead('a');
  local.endRead('a', first, entry('old 1'));
  local.endRead('a', second, entry('old 2'));
  t.is(local.get('a', 0), undefined, 'both reads began before the drop');
  local.endRead('a', third, entry('new'));
  t.is(local.get('a', 0)?.body.toString(), 'new', 'the read begun after the drop is kept');
});

test('a read that ended (found nothing or failed) leaves nothing behind for a later read', (t) => {
  const local = new LocalScores(60_000);
  local.endRead('a', local.beginRead('a'), undefined);
  const later = local.beginRead('a');
  t.false(later.dropped);
  local.endRead('a', later, entry('a'));
  t.is(local.get('a', 0)?.body.toString(), 'a');
});

test('a score is answered until the service clock reaches its stale time, not after', (t) => {
  const local = new LocalScores(60_000);
  local.endRead('a', local.beginRead('a'), entry('a', 5000));
  t.truthy(local.get('a', 4999));
  t.is(local.get('a', 5000), undefined);
});
