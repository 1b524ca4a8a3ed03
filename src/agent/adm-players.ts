// Finds the players of one admin-log line, reading from the right. A name is free text its player
// chose, so it may hold anything the game writes around it (`" (id=`, `pos=<`, `) with `,
// `killed by Player "`): no id, position or weapon is ever read from inside one. What the game writes
// after a name is its group ` (id=<id> pos=<x, y, z>)`; the last group of a line is always the
// game's, since only the game's own text (weapon, class, zone and ammo names) follows it. With two
// players, the split between the names is taken only where exactly one place fits. Pure.

export interface AdmPlayer {
  name: string;
  /** The id as logged (DayZ ID, console id, or Steam64); null for `id=Unknown`. */
  id: string | null;
  /** East, north, altitude; only used to measure melee distance, never sent. */
  pos: [number, number, number] | null;
}

export type Quote = '"' | "'";

/** Where one `(id=...)` group of a line is (its closing quote included), and what it says. */
export interface IdGroup {
  start: number;
  end: number;
  id: string | null;
  pos: AdmPlayer['pos'];
}

// Looser than any real id or position on purpose: the game's group must always be found, or a
// group written inside a name would stand in for it. What is found is checked after (the reader
// takes only ids of a known form, and a position only as three numbers). Neither quote can occur
// inside a group, so groups never overlap and one scan finds them all.
const idChars = String.raw`[^\s"'()<>]*`;
const posChars = String.raw`[^"'()<>]*`;
const groupOf = (quote: Quote) => new RegExp(`${quote}(?: \\(DEAD\\))? ?\\(id=(${idChars})(?: pos=<(${posChars})>)?\\)`, 'g');
const groupPatterns: Record<Quote, RegExp> = { '"': groupOf('"'), "'": groupOf("'") };
const number = String.raw`\s*([-+]?[0-9.]+(?:[eE][-+]?[0-9]+)?)\s*`;
const positionPattern = new RegExp(`^${number},${number},${number}$`);

export const idOf = (text: string) => (text === '' || text === 'Unknown' ? null : text);

function position(text: string | undefined): AdmPlayer['pos'] {
  const m = text === undefined ? null : positionPattern.exec(text);
  if (!m) return null;
  const xyz = [Number(m[1]), Number(m[2]), Number(m[3])] as [number, number, number];
  return xyz.every(Number.isFinite) ? xyz : null;
}

/** Every group of `text` (a line after its `Player "`), left to right. */
export function idGroups(text: string, quote: Quote): IdGroup[] {
  return Array.from(text.matchAll(groupPatterns[quote]), (m) => ({
    start: m.index,
    end: m.index + m[0].length,
    id: idOf(m[1]!),
    pos: position(m[2]),
  }));
}

/** The player of a group, named by the text from `nameStart` up to the group. */
export const playerAt = (text: string, nameStart: number, group: IdGroup): AdmPlayer => ({
  name: text.slice(nameStart, group.start),
  id: group.id,
  pos: group.pos,
});

/**
 * The two players of `<name><group><between><name><group><tail>` (a kill or a hit by a player): the
 * second group is the line's last; the first is the group that `between` (a sticky pattern) follows.
 * Both names are free text, so when several groups fit, one of the names imitates the other
 * player's part and which cannot be told: the line is not read (`fits` says how many fitted).
 */
export function twoPlayers(text: string, groups: IdGroup[], between: RegExp): { first: AdmPlayer; second: AdmPlayer } | { fits: number } {
  const second = groups.at(-1);
  if (!second) return { fits: 0 };
  const fits: { group: IdGroup; nameStart: number }[] = [];
  for (const group of groups.slice(0, -1)) {
    between.lastIndex = group.end;
    if (between.test(text) && between.lastIndex <= second.start) fits.push({ group, nameStart: between.lastIndex });
  }
  if (fits.length !== 1) return { fits: fits.length };
  const [fit] = fits as [(typeof fits)[number]];
  return { first: playerAt(text, 0, fit.group), second: playerAt(text, fit.nameStart, second) };
}
