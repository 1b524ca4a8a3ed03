// The community ban pool. Network moderators see every community's submissions with their
// evidence and approve, reject or overturn them; a community sees the state of its own.
import { useState } from 'preact/hooks';
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
  SelectField,
  Table,
  useAction,
  useLoad,
} from '../components.tsx';
import { useSession } from '../session.tsx';
import { categoryWords } from '../types.ts';
import type { AccountList, TrustSubmission, TrustSubmissionList } from '../types.ts';

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
      setDone(`The entry for ${s.platformId} is ${words}.`);
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
                  <PlayerLink platformId={s.platformId} />
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
                            confirmLabel={`Approve: ${s.platformId}'s score drops. Continue?`}
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
