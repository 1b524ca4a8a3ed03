// What this process knows the players table holds of each player, so ingestion leaves a row alone
// that already says as much (src/ingest/ingest.repo.ts, upsertPlayers). A fleet keeps ~150,000
// players here, rewritten at every batch they are in: each is held in place in an LruSlab
// (src/store/lru-slab.ts), so a write allocates nothing that lives.
import { LruSlab } from '../store/lru-slab.ts';

/** What is known to be stored of a player at least: the name, a first seen no later, a last seen no earlier. */
export interface StoredPlayer { name: string; firstMs: number; lastMs: number }

const first = 0;
const last = 1;
const name = 0;

export class StoredPlayers {
  readonly #players = new LruSlab({ numbers: 2, texts: 1, max: 200_000, ttlMs: 60_000 });

  get(platformId: string): StoredPlayer | undefined {
    const players = this.#players;
    const slot = players.find(platformId);
    if (slot === undefined) return undefined;
    return { name: players.text(slot, name)!, firstMs: players.number(slot, first)!, lastMs: players.number(slot, last)! };
  }

  set(platformId: string, player: StoredPlayer): void {
    const players = this.#players;
    const slot = players.hold(platformId);
    players.setText(slot, name, player.name);
    players.setNumber(slot, first, player.firstMs);
    players.setNumber(slot, last, player.lastMs);
  }

  /** The rows an ingest call stored, as it returns them: a JSON array of [platformId, name, firstMs, lastMs]. */
  setAll(json: string): void {
    for (const [id, name, firstMs, lastMs] of JSON.parse(json) as [string, string, number, number][]) this.set(id, { name, firstMs, lastMs });
  }
}
