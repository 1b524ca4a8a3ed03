// The audit log: who did what, to what (named), from where; filtered by actor and action, newest
// first, with older entries loaded on request. The worker's routine file syncs only when asked for.
import { useState } from 'preact/hooks';
import { PlayerLink } from '../player-link.tsx';
import { api, query } from '../api.ts';
import { actionLabel, knownActions, targetLabel } from '../audit-words.ts';
import { DateText, ErrorText, Loading, PageTitle, Table, TextField, useAction, useLoad } from '../components.tsx';
import type { AuditEntry, AuditPage as Page } from '../types.ts';

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

/** What the service is asked for: the routine file syncs only when the box is ticked. */
const asked = (f: { actor: string; action: string; fileSyncs: boolean }) => ({ ...f, fileSyncs: f.fileSyncs ? 'true' : undefined });

export function AuditPage() {
  const [filter, setFilter] = useState({ actor: '', action: '', fileSyncs: false });
  const [applied, setApplied] = useState(filter);
  const [entries, setEntries] = useState<AuditEntry[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const more = useAction();
  const first = useLoad(async () => {
    const page = await api<Page>('GET', `/api/audit${query({ ...asked(applied), limit: 50 })}`);
    setEntries(page.entries);
    setCursor(page.nextCursor);
    return page;
  }, [applied]);
  const older = () =>
    void more.run(async () => {
      const page = await api<Page>('GET', `/api/audit${query({ ...asked(applied), limit: 50, before: cursor })}`);
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
          setApplied({ actor: filter.actor.trim(), action: filter.action.trim(), fileSyncs: filter.fileSyncs });
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
            <label class="choice">
              <input
                type="checkbox"
                checked={filter.fileSyncs}
                onChange={(e) => {
                  // Shown or hidden at once, with the filter as last applied.
                  const fileSyncs = e.currentTarget.checked;
                  setFilter({ ...filter, fileSyncs });
                  setApplied({ ...applied, fileSyncs });
                }}
              />{' '}
              Show file syncs
            </label>
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
              <td class="audit-action">
                {actionLabel(e.action)}
                <div class="mono muted">{e.action}</div>
              </td>
              <td>
                {e.target.type ? (
                  <>
                    {targetLabel(e.target.type)}
                    {e.target.name && (
                      <>
                        : <strong>{e.target.name}</strong>
                      </>
                    )}
                    {e.target.id && (
                      <div>
                        {e.target.type === 'player' ? <PlayerLink platformId={e.target.id} /> : <span class="mono">{e.target.id}</span>}
                      </div>
                    )}
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
