// Text as it enters the service, normalised once: every string of a parsed JSON body is made
// well-formed (a lone surrogate becomes U+FFFD, so PostgreSQL and Redis hold the same text and
// every JSON parser reads it back), U+0000 is refused (PostgreSQL text cannot hold it), and nesting
// is bounded (a walk of a body 200,000 arrays deep would exhaust the stack).
type WellFormed = { isWellFormed(): boolean; toWellFormed(): string };

export const maxJsonDepth = 32;

const clean = (s: string): string => ((s as unknown as WellFormed).isWellFormed() ? s : (s as unknown as WellFormed).toWellFormed());

/**
 * Normalises the strings inside a parsed JSON value in place (keys included); returns what is wrong
 * with it (NUL, too deep), or undefined.
 */
export function normaliseJsonText(value: unknown, depth = 0): string | undefined {
  if (typeof value !== 'object' || value === null) return typeof value === 'string' && value.includes('\u0000') ? nulProblem : undefined;
  if (depth >= maxJsonDepth) return `nesting deeper than ${maxJsonDepth} levels`;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (typeof item === 'string') value[i] = clean(item);
      const problem = normaliseJsonText(value[i], depth + 1);
      if (problem) return problem;
    }
    return undefined;
  }
  const record = value as Record<string, unknown>;
  // A loop, not Object.entries: this runs on every field of every ingested event.
  for (const key in record) {
    if (key.includes('\u0000')) return nulProblem;
    let item = record[key];
    if (typeof item === 'string') item = record[key] = clean(item);
    const fixedKey = clean(key);
    if (fixedKey !== key) {
      delete record[key];
      record[fixedKey] = item;
    }
    const problem = normaliseJsonText(item, depth + 1);
    if (problem) return problem;
  }
  return undefined;
}

const nulProblem = 'text must not contain NUL (\\u0000) characters';
