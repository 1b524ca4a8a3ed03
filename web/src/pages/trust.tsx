// The community ban pool. Network moderators see every community's submissions with their
// evidence and approve, reject or overturn them; a community sees the state of its own, and
// submits one of its bans (from the Bans page) with a category it must choose, each explained.
import { useId, useState } from 'preact/hooks';
import { PlayerLink } from '../player-link.tsx';
import { api, query } from '../api.ts';
import {
  Badge,
  ConfirmButton,
  DateText,
  ErrorText,
  Loading,
  Notice,
  PageTitle,
  Problem,
  SelectField,
  Table,
  TextField,
  useAction,
  useLoad,
  useOpenedPanel,
} from '../components.tsx';
import { useSession } from '../session.tsx';
import { categories, categoryTable, categoryWords } from '../types.ts';
import type { AccountList, BanRecord, Category, TrustSubmission, TrustSubmissionList } from '../types.ts';

const statusTone = { pending: 'warn', active: 'bad', rejected: 'off', overturned: 'ok', expired: 'off' } as const;
const pageSize = 50;

export function TrustPage() {
  const { can } = useSession();
  const moderator = can('trust.moderate');
  const [status, setStatus] = useState(moderator ? 'pending' : '');
  const [offset, setOffset] = useState(0);
  const [done, setDone] = useState('');
  const list = useLoad(
    () => api<TrustSubmissionList>('GET', `/api/trust/submissions${query({ status, limit: pageSize, offset })}`),
    [status, offset],
  );
  const accounts = useLoad(
    () => (can('accounts.manage') ? api<AccountList>('GET', '/api/accounts') : Promise.resolve({ accounts: [] })),
    [],
  );
  const names = new Map((accounts.data?.accounts ?? []).map((a) => [a.id, a.name]));
  const row = useAction();
  const decide = (s: TrustSubmission, path: string, words: string) =>
    row.run(async () => {
      await api('POST', path);
      setDone(`The entry for ${s.playerName ?? s.platformId} is ${words}.`);
      list.reload();
    });

  return (
    <>
      <PageTitle>{moderator ? 'Trust pool moderation' : 'Trust pool submissions'}</PageTitle>
      <p class="muted">
        {moderator
          ? "Submissions count in a player's public score only once approved. An overturned entry counts for the player."
          : "Your community's submissions to the network's ban pool and where they stand. Submit a ban from the Bans page."}
      </p>
      {done && <Notice>{done}</Notice>}
      <div class="row">
        <SelectField
          label="Show"
          value={status}
          onChange={(s) => {
            setStatus(s);
            setOffset(0);
          }}
          options={[
            ['', 'Every state'],
            ['pending', 'Pending review'],
            ['active', 'Approved, in force'],
            ['expired', 'Expired'],
            ['overturned', 'Overturned'],
            ['rejected', 'Rejected'],
          ]}
        />
      </div>
      <ErrorText error={list.error ?? row.error} />
      {list.loading && !list.data && <Loading what="the submissions" />}
      {list.data && (
        <>
          <Table
            caption="Pool entries, newest first"
            head={['Player', 'Category and reason', 'Evidence', 'Community', 'State', 'Submitted', ...(moderator ? ['Actions'] : [])]}
            empty={list.data.submissions.length === 0 && 'No entries in this state.'}
          >
            {list.data.submissions.map((s) => (
              <tr key={s.id}>
                <td>
                  <PlayerLink platformId={s.platformId} name={s.playerName} showId />
                </td>
                <td>
                  <strong>{categoryWords[s.category]}</strong>: {s.reason}
                  {s.note && <div class="muted">Private note: {s.note}</div>}
                </td>
                <td>
                  {s.evidence.length === 0 ? (
                    'none'
                  ) : (
                    <ul>
                      {s.evidence.map((link) => (
                        <li key={link}>
                          <a href={link} rel="noopener noreferrer" target="_blank">
                            {link}
                          </a>
                        </li>
                      ))}
                    </ul>
                  )}
                </td>
                <td>{names.get(s.accountId) ?? <span class="mono">{s.accountId}</span>}</td>
                <td>
                  <Badge tone={statusTone[s.status]}>{s.status}</Badge>
                  {s.expiresAt && (
                    <div class="muted">
                      until <DateText iso={s.expiresAt} />
                    </div>
                  )}
                </td>
                <td>
                  <DateText iso={s.createdAt} />
                </td>
                {moderator && (
                  <td>
                    <div class="actions">
                      {s.status === 'pending' && (
                        <>
                          <ConfirmButton
                            label="Approve"
                            danger={false}
                            confirmLabel={`Approve: the score of ${s.playerName ?? s.platformId} drops. Continue?`}
                            onConfirm={() => decide(s, `/api/trust/submissions/${s.id}/approve`, 'approved')}
                          />
                          <ConfirmButton
                            label="Reject"
                            confirmLabel="Reject this submission?"
                            onConfirm={() => decide(s, `/api/trust/submissions/${s.id}/reject`, 'rejected')}
                          />
                        </>
                      )}
                      {(s.status === 'active' || s.status === 'expired') && (
                        <ConfirmButton
                          label="Overturn"
                          confirmLabel="Uphold the appeal and overturn this entry?"
                          onConfirm={() => decide(s, `/api/trust/entries/${s.id}/overturn`, 'overturned')}
                        />
                      )}
                    </div>
                  </td>
                )}
              </tr>
            ))}
          </Table>
          <div class="pager">
            <button type="button" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - pageSize))}>
              Previous page
            </button>
            <button type="button" disabled={list.data.submissions.length < pageSize} onClick={() => setOffset(offset + pageSize)}>
              Next page
            </button>
          </div>
        </>
      )}
    </>
  );
}

/** The categories as radio buttons, none chosen at first, each with what it means. */
function CategoryChoices({ value, onChange }: { value: Category | ''; onChange: (c: Category) => void }) {
  const name = useId();
  return (
    <fieldset class="field">
      <legend>Category</legend>
      {categories.map((c) => (
        <div class="choice-item" key={c}>
          <label class="choice">
            <input
              type="radio"
              name={name}
              value={c}
              checked={value === c}
              onChange={() => onChange(c)}
              aria-describedby={`${name}-${c}`}
            />{' '}
            {categoryTable[c].words}
          </label>
          <span class="hint" id={`${name}-${c}`}>
            {categoryTable[c].meaning}
          </span>
        </div>
      ))}
    </fieldset>
  );
}

export function SubmitToPool({ ban, onClose }: { ban: BanRecord; onClose: (message?: string) => void }) {
  const [category, setCategory] = useState<Category | ''>('');
  const [reason, setReason] = useState(ban.reason ?? '');
  const [evidence, setEvidence] = useState('');
  const [note, setNote] = useState('');
  const action = useAction();
  const heading = useOpenedPanel<HTMLHeadingElement>();
  const submit = (e: Event) => {
    e.preventDefault();
    void action.run(async () => {
      if (!category) throw new Problem('Choose a category: it is the one thing the public sees of why the player was banned.');
      const links = evidence.split(/\s+/).filter(Boolean);
      await api('POST', '/api/trust/submissions', {
        banId: ban.id,
        category,
        reason: reason.trim(),
        evidence: links,
        ...(note.trim() ? { note: note.trim() } : {}),
      });
      onClose(`The ban of ${ban.playerName ?? ban.platformId} is submitted to the pool; a network moderator reviews it.`);
    });
  };
  return (
    <section class="panel" aria-labelledby="submit-pool">
      <h2 id="submit-pool" ref={heading} tabIndex={-1}>
        Submit the ban of {ban.playerName ?? ban.platformId} to the trust pool
      </h2>
      <p class="muted">
        Once a network moderator approves it, the ban counts in the player's public trust score. The public sees your community's name and
        the category, never the reason text, your name or the note.
      </p>
      <form onSubmit={submit}>
        <CategoryChoices value={category} onChange={setCategory} />
        <TextField label="Reason for the moderators" value={reason} onInput={setReason} required maxLength={2000} multiline />
        <TextField
          label="Evidence links (optional)"
          value={evidence}
          onInput={setEvidence}
          multiline
          hint="One http(s) link per line: clips, screenshots, logs."
        />
        <TextField
          label="Private note (optional)"
          value={note}
          onInput={setNote}
          maxLength={2000}
          multiline
          hint="Seen only by your community and the moderators."
        />
        <ErrorText error={action.error} />
        <div class="actions">
          <button class="primary" type="submit" disabled={action.busy}>
            Submit
          </button>
          <button type="button" onClick={() => onClose()}>
            Cancel
          </button>
        </div>
      </form>
    </section>
  );
}
