// Run by test/ingest/held-rows.test.ts in a process of its own (node --expose-gc): fills the rows
// ingestion holds for a fleet's players and prints how many heap objects of each kind were added,
// then writes every row again, round after round, and prints what that left in the old generation.
// With `none` it does the same without holding the rows: what the harness alone adds.
import { randomUUID } from 'node:crypto';
import { getHeapSnapshot, getHeapSpaceStatistics } from 'node:v8';
import { PresentTotals } from '../../src/ingest/present-totals.ts';
import { StoredPlayers } from '../../src/ingest/stored-players.ts';

const collect = (globalThis as { gc?: (options?: { type: 'minor' | 'major' }) => void }).gc!;

async function objectsByKind(): Promise<Map<string, number>> {
  // Scavenges first, as a service's come every few milliseconds: they drop what a flattened string was built of.
  collect({ type: 'minor' });
  collect({ type: 'minor' });
  collect({ type: 'major' });
  const chunks: Buffer[] = [];
  for await (const chunk of getHeapSnapshot()) chunks.push(chunk as Buffer);
  const snapshot = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { snapshot: { meta: { node_fields: string[]; node_types: [string[]] } }; nodes: number[] };
  const { node_fields: fields, node_types: [kinds] } = snapshot.snapshot.meta;
  const counts = new Map<string, number>();
  for (let i = fields.indexOf('type'); i < snapshot.nodes.length; i += fields.length) {
    const kind = kinds[snapshot.nodes[i]!]!;
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
  }
  return counts;
}

const players = Number(process.argv[2]);
const holding = process.argv[3] !== 'none';
const present = new PresentTotals();
const stored = new StoredPlayers();
const before = await objectsByKind();
const servers = Array.from({ length: players / 100 }, () => randomUUID());
const nowMs = 1_732_000_000_123;
for (let i = 0; i < players; i++) {
  // Ids and names as a request body's JSON gives them.
  const { id, name } = JSON.parse(JSON.stringify({ id: String(76561198000000000n + BigInt(i)), name: `fleet ${i}` })) as { id: string; name: string };
  if (holding) present.set(servers[i % servers.length]!, id, {
    tag: String(900_000 + i),
    totals: { name, kills: i % 7, deaths: 2, headshots: 1, killDistanceSum: 150.5 + i, playSeconds: 3600.25, shotsFired: 100, shotsHit: 30, onlineAtMs: nowMs + i, presenceAtMs: nowMs + i, nameAtMs: nowMs },
  });
  if (holding) stored.set(id, { name, firstMs: nowMs - 1000 - i, lastMs: nowMs + i });
}
const after = await objectsByKind();
const added = Object.fromEntries([...after].map(([kind, n]) => [kind, n - (before.get(kind) ?? 0)]));

// Every row written again as a batch writes it: ids, names and the call's tag as a request and a
// call bring them (equal texts, new strings). After each round the young generation is collected
// twice: V8 moves what survives two scavenges into the old generation.
const oldSpaceUsed = () => getHeapSpaceStatistics().find((space) => space.space_name === 'old_space')!.space_used_size;
const rounds = 5;
collect({ type: 'major' });
const oldBefore = oldSpaceUsed();
for (let round = 1; round <= rounds; round++) {
  const tag = String(2_000_000 + round);
  for (let i = 0; i < players; i++) {
    const { id, name } = JSON.parse(JSON.stringify({ id: String(76561198000000000n + BigInt(i)), name: `fleet ${i}` })) as { id: string; name: string };
    if (holding) present.set(servers[i % servers.length]!, id, {
      tag,
      totals: { name, kills: i % 7 + round, deaths: 2, headshots: 1, killDistanceSum: 150.5 + i, playSeconds: 3600.25 + round, shotsFired: 100, shotsHit: 30, onlineAtMs: nowMs + i + round, presenceAtMs: nowMs + i + round, nameAtMs: nowMs },
    });
    if (holding) stored.set(id, { name, firstMs: nowMs - 1000 - i, lastMs: nowMs + i + round });
  }
  collect({ type: 'minor' });
  collect({ type: 'minor' });
}
const promotedBytesPerWrite = (oldSpaceUsed() - oldBefore) / (players * rounds);
process.stdout.write(JSON.stringify({ added, promotedBytesPerWrite }));
