// PostgreSQL array literals for query parameters. node-pg quotes every element of an array
// parameter and runs two regular expressions over it; ingestion's one call sends about twenty
// arrays of up to a thousand elements a batch, for which that was a tenth of the web process's time
// in a backfill. Here numbers and booleans go bare and a text is escaped only when it must be.
export type ArrayElement = string | number | boolean | null | undefined;
/** One column of rows sent as an array parameter (unnest takes it apart). */
export type Column = readonly ArrayElement[];

const quoted = (s: string) => `"${s.includes('\\') || s.includes('"') ? s.replace(/[\\"]/g, '\\$&') : s}"`;

/** The literal of a one-dimensional array, as PostgreSQL's array input reads it (null and undefined are NULL). */
export function pgArray(values: readonly ArrayElement[]): string {
  let out = '{';
  for (let i = 0; i < values.length; i++) {
    if (i > 0) out += ',';
    const v = values[i];
    if (v === null || v === undefined) out += 'NULL';
    else if (typeof v === 'number') out += String(v);
    else if (typeof v === 'boolean') out += v ? 't' : 'f';
    else out += quoted(v);
  }
  return `${out}}`;
}
