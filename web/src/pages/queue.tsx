// The priority queue (reserved slots): add a player for a time or for good, on every server or on
// some; extend an entry; remove it. Entries are written to each server's priority file.
import { useState } from 'preact/hooks';
import { PlayerLink } from '../player-link.tsx';
import { searchParam } from '../router.tsx';
import { api, query } from '../api.ts';
import {
  Badge,
  Choices,
  ConfirmButton,
  DateText,
  ErrorText,
  Loading,
  Notice,
  PageTitle,
  Problem,
  Table,
  TextField,
  useAction,
  useLoad,
} from '../components.tsx';
import { pageCaption } from '../format.ts';
import { useSession } from '../session.tsx';
import { platformIdPattern } from '../types.ts';
import type { ManagedServer, ManagedServerList, QueueEntry, QueuePage } from '../types.ts';

const pageSize = 50;
/** The entry's name, else the one its player was last seen with on the community's servers, else its id. */
const nameOf = (q: QueueEntry) => q.playerName ?? q.seenName ?? q.platformId;

export function QueuePage() {
  const { can } = useSession();
  const manage = can('queue.manage');
  const [search, setSearch] = useState(searchParam('player'));
  const [applied, setApplied] = useState(search);
  const [offset, setOffset] = useState(0);
  const [done, setDone] = useState('');
  const servers = useLoad(() => api<ManagedServerList>('GET', '/api/servers'), []);
  const list = useLoad(
    () => api<QueuePage>('GET', `/api/priority-queue${query({ platformId: applied, limit: pageSize, offset })}`),
    [applied, offset],
  );
  const row = useAction();
  const names = new Map((servers.data?.servers ?? []).map((s) => [s.id, s.name]));
  const changed = (message: string) => {
    setDone(message);
    list.reload();
  };

  return (
    <>
      <PageTitle>Priority queue</PageTitle>
      <p class="muted">Players in the queue get a reserved slot: they are written to each server's priority file.</p>
      {done && <Notice>{done}</Notice>}
      <form
        class="panel"
        role="search"
        aria-label="Search the queue"
        onSubmit={(e) => {
          e.preventDefault();
          setOffset(0);
          setApplied(search.trim());
        }}
      >
        <div class="row">
          <TextField label="Player id" value={search} onInput={setSearch} />
          <div class="field button">
            <button type="submit">Search</button>
          </div>
        </div>
      </form>
      <ErrorText error={list.error ?? row.error} />
      {list.loading && !list.data && <Loading what="the queue" />}
      {list.data && (
        <>
          <Table
            caption={pageCaption('Queue entries', offset, list.data.entries.length, list.data.total)}
            head={['Player', 'Servers', 'Until', 'Source', ...(manage ? ['Actions'] : [])]}
            empty={list.data.entries.length === 0 && 'Nobody is in the queue.'}
          >
            {list.data.entries.map((q) => (
              <tr key={q.id}>
                <td>
                  <PlayerLink
                    platformId={q.platformId}
                    name={q.playerName ?? q.seenName ?? 'unnamed'}
                    nameNote={!q.playerName && q.seenName && '(as seen in game)'}
                    showId
                  />
                  {q.comment && <div class="muted">{q.comment}</div>}
                </td>
                <td>{q.serverIds === null ? 'Every server' : q.serverIds.map((id) => names.get(id) ?? id).join(', ')}</td>
                <td>
                  {q.permanent ? (
                    'Permanent'
                  ) : (
                    <>
                      <DateText iso={q.expiresAt} />
                      {!q.active && (
                        <>
                          {' '}
                          <Badge tone="off">Expired</Badge>
                        </>
                      )}
                    </>
                  )}
                </td>
                <td>{q.source}</td>
                {manage && (
                  <td>
                    <div class="actions">
                      {!q.permanent && <Extend entry={q} onDone={changed} />}
                      <ConfirmButton
                        label="Remove"
                        confirmLabel={`Remove ${nameOf(q)} from the queue?`}
                        onConfirm={() =>
                          row.run(async () => {
                            await api('DELETE', `/api/priority-queue/${q.id}`);
                            changed(`${nameOf(q)} is out of the queue.`);
                          })
                        }
                      />
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
            <button type="button" disabled={offset + pageSize >= list.data.total} onClick={() => setOffset(offset + pageSize)}>
              Next page
            </button>
          </div>
        </>
      )}
      {manage && <AddEntry servers={servers.data?.servers ?? []} onDone={changed} />}
    </>
  );
}

/** Adding the same player and scope again with a number of days extends the entry from its expiry. */
function Extend({ entry, onDone }: { entry: QueueEntry; onDone: (message: string) => void }) {
  const [open, setOpen] = useState(false);
  const [days, setDays] = useState('30');
  const action = useAction();
  if (!open)
    return (
      <button type="button" onClick={() => setOpen(true)}>
        Extend<span class="visually-hidden"> {nameOf(entry)}</span>
      </button>
    );
  const submit = (e: Event) => {
    e.preventDefault();
    void action.run(async () => {
      await api('POST', '/api/priority-queue', { platformId: entry.platformId, serverIds: entry.serverIds, durationDays: Number(days) });
      setOpen(false);
      onDone(`${nameOf(entry)}: extended by ${days} days.`);
    });
  };
  return (
    <form onSubmit={submit} class="row">
      <TextField label="Days more" type="number" value={days} onInput={setDays} required min={1} max={36500} />
      <ErrorText error={action.error} />
      <div class="field button actions">
        <button class="primary" type="submit" disabled={action.busy}>
          Extend
        </button>
        <button type="button" onClick={() => setOpen(false)}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function AddEntry({ servers, onDone }: { servers: ManagedServer[]; onDone: (message: string) => void }) {
  // A profile's "Add to the priority queue" link names the player (?player=&name=).
  const [f, setF] = useState({
    platformId: searchParam('player'),
    playerName: searchParam('name'),
    comment: '',
    length: 'days',
    days: '30',
    scope: 'all',
  });
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const action = useAction();
  const toggle = (id: string) => {
    const next = new Set(chosen);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setChosen(next);
  };
  const submit = (e: Event) => {
    e.preventDefault();
    void action.run(async () => {
      if (f.scope === 'some' && chosen.size === 0) throw new Problem('Choose at least one server, or every server.');
      const entry = await api<QueueEntry>('POST', '/api/priority-queue', {
        platformId: f.platformId.trim(),
        playerName: f.playerName.trim() || null,
        comment: f.comment.trim() || null,
        ...(f.length === 'days' ? { durationDays: Number(f.days) } : {}),
        serverIds: f.scope === 'some' ? [...chosen] : null,
      });
      setF({ ...f, platformId: '', playerName: '', comment: '' });
      onDone(`${entry.playerName ?? entry.platformId} is in the queue${entry.permanent ? ' for good' : ''}.`);
    });
  };
  return (
    <section class="panel" aria-labelledby="add-queue">
      <h2 id="add-queue">Add a player to the queue</h2>
      <form onSubmit={submit}>
        <div class="grid2">
          <TextField
            label="Player id"
            value={f.platformId}
            onInput={(platformId) => setF({ ...f, platformId })}
            required
            pattern={platformIdPattern}
            hint="Steam64 (17 digits), DayZ ID or console id."
          />
          <TextField
            label="Player name (optional)"
            value={f.playerName}
            onInput={(playerName) => setF({ ...f, playerName })}
            maxLength={128}
          />
        </div>
        <TextField label="Comment (optional)" value={f.comment} onInput={(comment) => setF({ ...f, comment })} maxLength={500} />
        <div class="grid2">
          <div>
            <Choices
              legend="Expiry"
              value={f.length}
              onChange={(length) => setF({ ...f, length })}
              options={[
                ['days', 'After a number of days'],
                ['permanent', 'Never'],
              ]}
            />
            {f.length === 'days' && (
              <TextField label="Days" type="number" value={f.days} onInput={(days) => setF({ ...f, days })} required min={1} max={36500} />
            )}
          </div>
          <div>
            <Choices
              legend="Servers"
              value={f.scope}
              onChange={(scope) => setF({ ...f, scope })}
              options={[
                ['all', 'Every server of the community'],
                ['some', 'Only the servers chosen below'],
              ]}
            />
            {f.scope === 'some' && (
              <fieldset class="field">
                <legend>Servers</legend>
                {servers.map((s) => (
                  <label class="choice" key={s.id}>
                    <input type="checkbox" checked={chosen.has(s.id)} onChange={() => toggle(s.id)} /> {s.name}
                  </label>
                ))}
              </fieldset>
            )}
          </div>
        </div>
        <ErrorText error={action.error} />
        <button class="primary" type="submit" disabled={action.busy}>
          Add to the queue
        </button>
      </form>
    </section>
  );
}
