// How the one search field reads: an id in any form the service knows is that player exactly;
// anything else is the start of a name. Pure.
import { classifyIdentifier } from '../identities/id-forms.ts';
import type { IdentifierKind } from '../identities/id-forms.ts';

export type PlayerSearchTerm = { match: 'id'; kind: IdentifierKind; value: string } | { match: 'name'; prefix: string };

/**
 * An id is recognised with the spaces around it trimmed (ids are pasted from lists). A name keeps
 * its trailing spaces ("Bob " is not "Bobby") but not its leading ones; undefined for a q that is
 * only spaces.
 */
export function parseSearchTerm(q: string, nowMs: number): PlayerSearchTerm | undefined {
  const trimmed = q.trim();
  if (trimmed === '') return undefined;
  const id = classifyIdentifier(trimmed, nowMs);
  if (id) return { match: 'id', kind: id.kind, value: id.value };
  return { match: 'name', prefix: q.trimStart() };
}
