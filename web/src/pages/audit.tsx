// The audit log: who did what, to what, from where; filtered by actor and action, newest first,
// with older entries loaded on request.
import { useState } from 'preact/hooks';
import { PlayerLink } from '../player-link.tsx';
import { api, query } from '../api.ts';
import { DateText, ErrorText, Loading, PageTitle, Table, TextField, useAction, useLoad } from '../components.tsx';
import type { AuditEntry, AuditPage as Page } from '../types.ts';

const knownActions = [
  'auth',
  'auth.login',
  'auth.login-failed',
  'auth.lockout',
  'auth.logout',
  'setup.admin',
  'ban',
  'ban.create',
  'ban.update',
  'ban.lift',
  'ban.import',
  'ban.import-file',
  'queue',
  'queue.add',
  'queue.extend',
  'queue.update',
  'queue.remove',
  'queue.expire',
  'queue.import-file',
  'files.sync',
  'server',
  'server.create',
  'server.update',
  'server.revoke',
  'server.ingest-token.rotate',
  'apikey',
  'apikey.create',
  'apikey.revoke',
  'user',
  'user.create',
  'user.update',
  'user.delete',
  'chat',
  'chat.action',
  'chat.denied',
  'chat.sig-rejected',
  'chat.user-role.set',
  'chat.user-role.remove',
  'trust',
  'trust.submit',
  'trust.approve',
  'trust.reject',
  'trust.overturn',
  'partner-key.create',
  'partner-key.revoke',
  'account.create',
  'operator.data-api.set',
  'operator.rebuild',
  'player.merged',
];

const details = (d: Record<string, unknown>) =>
  Object.entries(d)
    .map(
      ([k, v]) =>
        `${k}: ${
          typeof v === 'string'
            ? v
            : Array.isArray(v)
              ? v.join(', ')
              : v === null
                ? 'none'
                : typeof v === 'object'
                  ? Object.entries(v as object)
                      .map(([a, b]) => `${a} ${String(b)}`)
                      .join(', ')
                  : String(v)
        }`,
    )
    .join('; ');

export function AuditPage() {
  const [filter, setFilter] = useState({ actor: '', action: '' });
  const [applied, setApplied] = useState(filter);
  const [entries, setEntries] = useState<AuditEntry[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const more = useAction();
  const first = useLoad(async () => {
    const page = await api<Page>('GET', `/api/audit${query({ ...applied, limit: 50 })}`);
    setEntries(page.entries);
    setCursor(page.nextCursor);
    return page;
  }, [applied]);
  const older = () =>
    void more.run(async () => {
      const page = await api<Page>('GET', `/api/audit${query({ ...applied, limit: 50, before: cursor })}`);
      setEntries([...entries, ...page.entries]);
      setCursor(page.nextCursor);
    });

  return (
    <>
      <PageTitle>Audit log</PageTitle>
      <form
        class="panel"
        role="search"
        aria-label="Filter the audit log"
        onSubmit={(e) => {
          e.preventDefault();
          setApplied({ actor: filter.actor.trim(), action: filter.action.trim() });
        }}
      >
        <div class="row">
          <TextField label="Actor" value={filter.actor} onInput={(actor) => setFilter({ ...filter, actor })} hint="A username." />
          <div class="field">
            <label for="audit-action">Action</label>
            <input
              id="audit-action"
              list="audit-actions"
              value={filter.action}
              pattern="[A-Za-z0-9._\-]+"
              aria-describedby="audit-action-hint"
              onInput={(e) => setFilter({ ...filter, action: e.currentTarget.value })}
            />
            <span class="hint" id="audit-action-hint">
              An action such as ban.create, or a kind such as ban.
            </span>
            <datalist id="audit-actions">
              {knownActions.map((a) => (
                <option key={a} value={a} />
              ))}
            </datalist>
          </div>
          <div class="field button">
            <button type="submit">Filter</button>
          </div>
        </div>
      </form>
      <ErrorText error={first.error ?? more.error} />
      {first.loading && <Loading what="the audit log" />}
      {!first.error && !first.loading && (
        <Table
          caption="Audit entries, newest first"
          head={['When', 'Who', 'Action', 'Target', 'Details', 'Address']}
          empty={entries.length === 0 && 'No entries match.'}
        >
          {entries.map((e) => (
            <tr key={e.id}>
              <td>
                <DateText iso={e.at} />
              </td>
              <td>
                {e.actor.name ?? e.actor.type}
                {e.actor.type !== 'user' && <div class="muted">{e.actor.type}</div>}
              </td>
              <td class="mono">{e.action}</td>
              <td>
                {e.target.type ? (
                  <>
                    {e.target.type}
                    <div>
                      {e.target.type === 'player' && e.target.id ? (
                        <PlayerLink platformId={e.target.id} />
                      ) : (
                        <span class="mono">{e.target.id}</span>
                      )}
                    </div>
                  </>
                ) : (
                  '–'
                )}
              </td>
              <td>
                {details(e.details) || '–'}
                {typeof e.details.platformId === 'string' && (
                  <div>
                    Player <PlayerLink platformId={e.details.platformId} />
                  </div>
                )}
              </td>
              <td class="mono">{e.ip ?? '–'}</td>
            </tr>
          ))}
        </Table>
      )}
      {cursor && (
        <button type="button" onClick={older} disabled={more.busy}>
          Load older entries
        </button>
      )}
    </>
  );
}
