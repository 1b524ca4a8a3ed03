// The Data API's in-process cache of a server's reads (src/stats/server-reads.ts): one load a
// field at a time, nothing kept from a load a drop overtook.
import test from 'ava';
import { LRUCache } from 'lru-cache';
import { dropServerReads, forgetServerRead, readThrough } from '../../src/stats/server-reads.ts';
import type { ServerReads } from '../../src/stats/server-reads.ts';

const cachesOf = () => ({ caches: { serverReads: new LRUCache<string, ServerReads>({ max: 100, ttl: 60_000 }) } });

/** A load that answers when told to, counting its calls. */
function gatedLoad<T>() {
  let calls = 0;
  const gates: { resolve: (v: T | null) => void; reject: (e: Error) => void }[] = [];
  const load = () => {
    calls += 1;
    return new Promise<T | null>((resolve, reject) => gates.push({ resolve, reject }));
  };
  return {
    load,
    calls: () => calls,
    answer: (i: number, v: T | null) => gates[i]!.resolve(v),
    fail: (i: number, e: Error) => gates[i]!.reject(e),
  };
}

test('reads that miss while a load is under way wait for it: one load, one value, then kept', async (t) => {
  const deps = cachesOf();
  const g = gatedLoad<string>();
  const reads = Array.from({ length: 10 }, () => readThrough(deps, 's1', 'status', g.load));
  t.is(g.calls(), 1);
  g.answer(0, 'v1');
  t.deepEqual(await Promise.all(reads), Array(10).fill('v1'));
  t.is(await readThrough(deps, 's1', 'status', g.load), 'v1');
  t.is(g.calls(), 1);
  // Other fields and other servers load on their own.
  void readThrough(deps, 's1', 'kills:50', g.load);
  void readThrough(deps, 's2', 'status', g.load);
  t.is(g.calls(), 3);
});

test('a load a drop of the server overtook keeps nothing; reads after the drop load anew', async (t) => {
  const deps = cachesOf();
  const g = gatedLoad<string>();
  const before = readThrough(deps, 's1', 'status', g.load);
  dropServerReads(deps, 's1'); // a batch changed the server while the load was under way
  const after = readThrough(deps, 's1', 'status', g.load);
  t.is(g.calls(), 2, 'a read after the drop does not wait for the older load');
  g.answer(1, 'new');
  g.answer(0, 'old');
  t.is(await before, 'old');
  t.is(await after, 'new');
  t.is(await readThrough(deps, 's1', 'status', g.load), 'new');
  t.is(g.calls(), 2);
});

test('a failed load fails every read that waited for it; the next read loads again', async (t) => {
  const deps = cachesOf();
  const g = gatedLoad<string>();
  const reads = [readThrough(deps, 's1', 'status', g.load), readThrough(deps, 's1', 'status', g.load)];
  g.fail(0, new Error('redis down'));
  for (const r of reads) await t.throwsAsync(r, { message: 'redis down' });
  const again = readThrough(deps, 's1', 'status', g.load);
  t.is(g.calls(), 2);
  g.answer(1, 'v');
  t.is(await again, 'v');
});

test('nothing found is not kept; a forgotten field loads again, the others stay', async (t) => {
  const deps = cachesOf();
  const g = gatedLoad<string>();
  const missing = readThrough(deps, 's1', 'status', g.load);
  g.answer(0, null);
  t.is(await missing, null);
  const found = readThrough(deps, 's1', 'status', g.load);
  const page = readThrough(deps, 's1', 'kills:50', g.load);
  t.is(g.calls(), 3);
  g.answer(1, 'status');
  g.answer(2, 'page');
  await Promise.all([found, page]);
  forgetServerRead(deps, 's1', 'status');
  void readThrough(deps, 's1', 'status', g.load);
  t.is(await readThrough(deps, 's1', 'kills:50', g.load), 'page');
  t.is(g.calls(), 4);
});
