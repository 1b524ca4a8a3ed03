// Texts held in memory by the hundred thousand, made flat. V8 keeps a string built by joining
// others (a template literal, a JSON.stringify result longer than a few dozen characters) as a
// tree of its parts: 2-4 heap objects where one would do, and every full collection marks each.
// Reading a character of such a string flattens it in place (V8's runtime does, to index it), and
// the next scavenge keeps only the flat copy. (Reading it as a number does not always: a text that
// cannot start a number is refused before it is flattened.)

export function flatText(text: string): string {
  text.charCodeAt(0);
  return text;
}
