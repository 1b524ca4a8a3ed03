// The canonical form of a username: what the sign-in lookup, the lockout and the uniqueness rule
// compare. Compatibility forms fold to one (NFKC: fullwidth "ｖｉｃｔｉｍ" is "victim"), case folds
// by JavaScript's locale-independent lower-casing, and NFKC again settles what lower-casing
// decomposed. "İ" lower-cases to "i" + U+0307, which no username may contain: such a name signs in
// nobody, under a lockout key of its own, instead of meaning "victim" to one check and not another.
export function canonicalUsername(raw: string): string {
  return raw.normalize('NFKC').toLowerCase().normalize('NFKC');
}
