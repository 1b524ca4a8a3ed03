// The community's bans: search, create (permanent or for a time), lift, import another community's
// ban by its id, and submit one of the community's own bans to the network's pool.
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
  refocus,
  SelectField,
  Table,
  TextField,
  useAction,
  useLoad,
} from '../components.tsx';
import { pageCaption } from '../format.ts';
import { useSession } from '../session.tsx';
import { platformIdPattern } from '../types.ts';
import type { BanRecord, BanRecordPage } from '../types.ts';
import { SubmitToPool } from './trust.tsx';

const pageSize = 25;
const playerIdHint = 'Steam64 (17 digits), DayZ ID (44 characters) or console id.';
const unitMinutes: Record<string, number> = { minutes: 1, hours: 60, days: 1440 };
const submitButtonId = (banId: string) => `submit-pool-${banId}`;

function status(b: BanRecord) {
  if (b.liftedAt) return <Badge tone="off">Lifted</Badge>;
  return b.active ? <Badge tone="bad">In force</Badge> : <Badge tone="off">Expired</Badge>;
}

/** When a ban ends: who lifted it and when, once lifted; else its expiry. */
function Until({ ban }: { ban: BanRecord }) {
  if (ban.liftedAt)
    return (
      <>
        Lifted by {ban.liftedBy?.name ?? 'an unknown user'} at <DateText iso={ban.liftedAt} />
      </>
    );
  return ban.permanent ? <>Permanent</> : <DateText iso={ban.expiresAt} />;
}

export function BansPage() {
  const { can } = useSession();
  const manage = can('bans.manage');
  const [filter, setFilter] = useState({ platformId: searchParam('player'), name: '', status: '' });
  const [applied, setApplied] = useState(filter);
  const [offset, setOffset] = useState(0);
  const [done, setDone] = useState('');
  const [submitting, setSubmitting] = useState<BanRecord | null>(null);
  const list = useLoad(() => api<BanRecordPage>('GET', `/api/bans${query({ ...applied, limit: pageSize, offset })}`), [applied, offset]);
  const row = useAction();
  const changed = (message: string) => {
    setDone(message);
    list.reload();
  };

  return (
    <>
      <PageTitle>Bans</PageTitle>
      <p class="muted">A ban applies to every server of the community and is written to each server's ban file.</p>
      {done && <Notice>{done}</Notice>}
      <form
        class="panel"
        role="search"
        aria-label="Search bans"
        onSubmit={(e) => {
          e.preventDefault();
          setOffset(0);
          setApplied(filter);
        }}
      >
        <div class="row">
          <TextField label="Player id" value={filter.platformId} onInput={(platformId) => setFilter({ ...filter, platformId })} />
          <TextField label="Player name contains" value={filter.name} onInput={(name) => setFilter({ ...filter, name })} />
          <SelectField
            label="State"
            value={filter.status}
            onChange={(s) => setFilter({ ...filter, status: s })}
            options={[
              ['', 'Any'],
              ['active', 'In force'],
              ['expired', 'Expired'],
              ['lifted', 'Lifted'],
            ]}
          />
          <div class="field button">
            <button type="submit">Search</button>
          </div>
        </div>
      </form>
      <ErrorText error={list.error ?? row.error} />
      {list.loading && !list.data && <Loading what="the bans" />}
      {list.data && (
        <>
          <Table
            caption={pageCaption('Bans', offset, list.data.bans.length, list.data.total)}
            head={['Player', 'Reason', 'State', 'Until', 'Banned', 'Ban id', ...(manage || can('trust.submit') ? ['Actions'] : [])]}
            empty={list.data.bans.length === 0 && 'No bans match.'}
          >
            {list.data.bans.map((b) => (
              <tr key={b.id}>
                <td>
                  <PlayerLink platformId={b.platformId} name={b.playerName ?? 'unnamed'} showId />
                </td>
                <td>
                  {b.reason ?? '–'}
                  {b.source !== 'manual' && (
                    <div class="muted">{b.source === 'import' ? 'imported from another community' : 'from the pool'}</div>
                  )}
                </td>
                <td>{status(b)}</td>
                <td>
                  <Until ban={b} />
                </td>
                <td>
                  <DateText iso={b.bannedAt} />
                  {b.createdBy?.name && <div class="muted">by {b.createdBy.name}</div>}
                </td>
                <td class="mono">{b.id}</td>
                {(manage || can('trust.submit')) && (
                  <td>
                    <div class="actions">
                      {manage && b.active && (
                        <ConfirmButton
                          label="Lift"
                          confirmLabel={`Lift the ban of ${b.playerName ?? b.platformId}?`}
                          onConfirm={() =>
                            row.run(async () => {
                              await api('DELETE', `/api/bans/${b.id}`);
                              changed(`The ban of ${b.playerName ?? b.platformId} is lifted.`);
                            })
                          }
                        />
                      )}
                      {can('trust.submit') && b.source === 'manual' && !b.liftedAt && (
                        <button type="button" id={submitButtonId(b.id)} onClick={() => setSubmitting(b)}>
                          Submit to the pool<span class="visually-hidden"> ({b.playerName ?? b.platformId})</span>
                        </button>
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
            <button type="button" disabled={offset + pageSize >= list.data.total} onClick={() => setOffset(offset + pageSize)}>
              Next page
            </button>
          </div>
        </>
      )}
      {submitting && (
        <SubmitToPool
          ban={submitting}
          onClose={(message) => {
            refocus(submitButtonId(submitting.id));
            setSubmitting(null);
            if (message) changed(message);
          }}
        />
      )}
      {manage && (
        <div class="grid2">
          <CreateBan onDone={changed} />
          <ImportBan onDone={changed} />
        </div>
      )}
    </>
  );
}

function CreateBan({ onDone }: { onDone: (message: string) => void }) {
  // A profile's "Ban this player" link names the player (?player=&name=).
  const [f, setF] = useState({
    platformId: searchParam('player'),
    playerName: searchParam('name'),
    reason: '',
    length: 'permanent',
    amount: '7',
    unit: 'days',
  });
  const action = useAction();
  const submit = (e: Event) => {
    e.preventDefault();
    void action.run(async () => {
      const ban = await api<BanRecord>('POST', '/api/bans', {
        platformId: f.platformId.trim(),
        playerName: f.playerName.trim() || null,
        reason: f.reason.trim() || null,
        ...(f.length === 'timed' ? { durationMinutes: Math.round(Number(f.amount) * unitMinutes[f.unit]!) } : {}),
      });
      setF({ ...f, platformId: '', playerName: '', reason: '' });
      onDone(`${ban.playerName ?? ban.platformId} is banned ${ban.permanent ? 'for good' : 'until the time shown'}. Ban id ${ban.id}.`);
    });
  };
  return (
    <section class="panel" aria-labelledby="create-ban">
      <h2 id="create-ban">Ban a player</h2>
      <form onSubmit={submit}>
        <TextField
          label="Player id"
          value={f.platformId}
          onInput={(platformId) => setF({ ...f, platformId })}
          required
          maxLength={64}
          pattern={platformIdPattern}
          hint={playerIdHint}
        />
        <TextField
          label="Player name (optional)"
          value={f.playerName}
          onInput={(playerName) => setF({ ...f, playerName })}
          maxLength={128}
        />
        <TextField label="Reason (optional)" value={f.reason} onInput={(reason) => setF({ ...f, reason })} maxLength={1000} multiline />
        <Choices
          legend="Length"
          value={f.length}
          onChange={(length) => setF({ ...f, length })}
          options={[
            ['permanent', 'Permanent'],
            ['timed', 'For a time'],
          ]}
        />
        {f.length === 'timed' && (
          <div class="row">
            <TextField
              label="How long"
              type="number"
              value={f.amount}
              onInput={(amount) => setF({ ...f, amount })}
              required
              min={1}
              max={100000}
            />
            <SelectField
              label="Unit"
              value={f.unit}
              onChange={(unit) => setF({ ...f, unit })}
              options={[
                ['minutes', 'Minutes'],
                ['hours', 'Hours'],
                ['days', 'Days'],
              ]}
            />
          </div>
        )}
        <ErrorText error={action.error} />
        <button class="primary" type="submit" disabled={action.busy}>
          Ban
        </button>
      </form>
    </section>
  );
}

function ImportBan({ onDone }: { onDone: (message: string) => void }) {
  const [banId, setBanId] = useState('');
  const action = useAction();
  const submit = (e: Event) => {
    e.preventDefault();
    void action.run(async () => {
      const ban = await api<BanRecord>('POST', '/api/bans/import', { banId: banId.trim() });
      setBanId('');
      onDone(`Imported: ${ban.playerName ?? ban.platformId} is banned here too.`);
    });
  };
  return (
    <section class="panel" aria-labelledby="import-ban">
      <h2 id="import-ban">Import a ban by its id</h2>
      <p class="muted">Another community can share the id of one of its bans; importing copies it here.</p>
      <form onSubmit={submit}>
        <TextField
          label="Ban id"
          value={banId}
          onInput={setBanId}
          required
          pattern="[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
          hint="A UUID, like 3f6c1a2e-…"
        />
        <ErrorText error={action.error} />
        <button class="primary" type="submit" disabled={action.busy}>
          Import
        </button>
      </form>
    </section>
  );
}
