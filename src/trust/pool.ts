// The community ban pool's rules: what may be submitted, and the moderators' transitions. Every
// change invalidates the player's cached score after it commits; an approval is a
// trust.entry.approved event for the submitting community's webhooks, in its transaction.
import type { Core } from '../core.ts';
import type { Checked } from '../http/schemas.ts';
import { ApiError, badRequest, notFound } from '../http/errors.ts';
import { isUuid } from '../http/uuid.ts';
import { classifyIdentifier } from '../identities/id-forms.ts';
import { resolvePlatformId } from '../identities/resolve.ts';
import { banOfAccount, banSourcesFor, entryStatus, insertSubmission, transitionEntry } from './pool.repo.ts';
import type { EntryStatus, PoolEntry } from './pool.repo.ts';
import { invalidateTrustScores } from './lookup.ts';
import type { TrustDeps } from './lookup.ts';
import { inTransaction } from '../store/db.ts';
import { queueEvent } from '../webhooks/outbox.repo.ts';
import type { EventToQueue } from '../webhooks/outbox.repo.ts';
import type { OutboundEvent } from '../webhooks/events.ts';

export type SubmissionBody = Checked<'trust-submission-create.json'>;

const copied = (source: string) =>
  new ApiError(
    'CONFLICT',
    `this ban came ${source === 'import' ? 'from another community' : 'from the pool'}: only a community's own bans are evidence`,
  );

/** A community's submission, from scratch or from one of its own (manual) bans. */
export async function submitToPool(deps: TrustDeps, who: { accountId: string; userId: string }, body: SubmissionBody): Promise<PoolEntry> {
  const at = new Date(deps.clock.now()).toISOString();
  let platformId: string;
  let expiresAt = body.expiresAt ?? null;
  if (body.banId !== undefined) {
    const ban = await banOfAccount(deps.db, who.accountId, body.banId.toLowerCase());
    if (!ban) throw notFound('ban');
    if (ban.source !== 'manual') throw copied(ban.source);
    if (ban.liftedAt !== null) throw new ApiError('CONFLICT', 'this ban was lifted');
    platformId = ban.platformId;
    expiresAt ??= ban.expiresAt;
  } else {
    const id = classifyIdentifier(body.platformId!, deps.clock.now());
    if (!id || !['steam64', 'legacy', 'dayzId', 'console'].includes(id.kind))
      throw badRequest('platformId must be a Steam64, STEAM_X:Y:Z, DayZ ID or console id');
    platformId = await resolvePlatformId(deps.db, id.value);
    const sources = await banSourcesFor(deps.db, who.accountId, platformId);
    if (sources.size > 0 && !sources.has('manual')) throw copied([...sources][0]!);
  }
  if (expiresAt !== null && Date.parse(expiresAt) <= deps.clock.now()) throw badRequest('expiresAt must lie in the future');
  const entry = await insertSubmission(
    deps.db,
    {
      platformId,
      accountId: who.accountId,
      submittedBy: who.userId,
      banId: body.banId?.toLowerCase() ?? null,
      category: body.category,
      reason: body.reason,
      evidence: body.evidence,
      note: body.note ?? null,
      expiresAt,
    },
    at,
  );
  if (!entry) throw new ApiError('CONFLICT', 'this ban is already submitted');
  await invalidateTrustScores(deps, [platformId]);
  return entry;
}

const transitions = {
  approve: { from: ['pending'], to: 'active' },
  reject: { from: ['pending'], to: 'rejected' },
  overturn: { from: ['active', 'expired'], to: 'overturned' },
} as const satisfies Record<string, { from: EntryStatus[]; to: EntryStatus }>;

export type Decision = keyof typeof transitions;

/** A network moderator's decision; 404 for an unknown entry, 409 when its state does not allow it. */
export async function decideEntry(deps: TrustDeps, entryId: string, decision: Decision): Promise<PoolEntry> {
  if (!isUuid(entryId)) throw notFound('pool entry');
  const { from, to } = transitions[decision];
  const at = new Date(deps.clock.now()).toISOString();
  const entry = await inTransaction(deps.db, async (tx) => {
    const changed = await transitionEntry(tx, entryId.toLowerCase(), [...from], to, at);
    // An approval that made the entry active tells its community's webhooks, in the same transaction.
    if (changed?.status === 'active' && decision === 'approve') await queueEvent(tx, approvedEvent(changed, at));
    return changed;
  });
  if (!entry) throw await missingOrConflict(deps, entryId.toLowerCase(), decision);
  await invalidateTrustScores(deps, [entry.platformId]);
  return entry;
}

const approvedEvent = (entry: PoolEntry, at: string): EventToQueue<Extract<OutboundEvent, { type: 'trust.entry.approved' }>> => ({
  accountId: entry.accountId,
  type: 'trust.entry.approved',
  occurredAt: at,
  data: {
    entry: {
      id: entry.id,
      platformId: entry.platformId,
      category: entry.category,
      reason: entry.reason,
      expiresAt: entry.expiresAt,
      decidedAt: entry.decidedAt,
    },
  },
});

async function missingOrConflict(deps: Core, entryId: string, decision: Decision): Promise<ApiError> {
  const status = await entryStatus(deps.db, entryId);
  if (status === undefined) return notFound('pool entry');
  return new ApiError(
    'CONFLICT',
    `an entry that is ${status} cannot be ${decision === 'approve' ? 'approved' : decision === 'reject' ? 'rejected' : 'overturned'}`,
  );
}
