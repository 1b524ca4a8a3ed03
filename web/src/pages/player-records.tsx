// The account's records of a player on the profile page: bans and queue entries with their audit
// history, the trust score with its reasons and pool entries, and the private notes (moderators
// add and delete them).
import { useState } from 'preact/hooks';
import type { JSX } from 'preact';
import { api } from '../api.ts';
import { actionLabel } from '../audit-words.ts';
import { Badge, ConfirmButton, DateText, ErrorText, Table, TextField, useAction, useLoad } from '../components.tsx';
import { playerApi } from '../player-link.tsx';
import { useSession } from '../session.tsx';
import { categoryWords } from '../types.ts';
import type { AuditEntry, ManagedServerList, PlayerNote, PlayerProfile } from '../types.ts';

function History({ entries, caption }: { entries: AuditEntry[]; caption: string }) {
  if (entries.length === 0) return null;
  return (
    <Table caption={caption} head={['When', 'What', 'Who']}>
      {entries.map((e) => (
        <tr key={e.id}>
          <td>
            <DateText iso={e.at} />
          </td>
          <td>{actionLabel(e.action)}</td>
          <td>{e.actor.name ?? e.actor.type}</td>
        </tr>
      ))}
    </Table>
  );
}

export function BansOfPlayer({ bans }: { bans: PlayerProfile['bans'] }) {
  return (
    <section aria-labelledby="player-bans-title">
      <h2 id="player-bans-title">Bans</h2>
      {bans.length === 0 && <p>Your community has not banned this player.</p>}
      {bans.map(({ ban, history }) => (
        <div key={ban.id} class="panel">
          <p>
            {ban.active ? <Badge tone="bad">In force</Badge> : <Badge tone="off">Lifted or ended</Badge>} {ban.reason ?? 'No reason given.'}{' '}
            Banned <DateText iso={ban.bannedAt} />,{' '}
            {ban.permanent ? (
              'permanent'
            ) : (
              <>
                until <DateText iso={ban.expiresAt} />
              </>
            )}
            . Ban id <span class="mono">{ban.id}</span>.
          </p>
          <History entries={history} caption={`History of ban ${ban.id}, newest first`} />
        </div>
      ))}
    </section>
  );
}

export function QueueOfPlayer({ queue }: { queue: PlayerProfile['queue'] }) {
  const servers = useLoad(() => api<ManagedServerList>('GET', '/api/servers'), []);
  const names = new Map((servers.data?.servers ?? []).map((s) => [s.id, s.name]));
  return (
    <section aria-labelledby="player-queue-title">
      <h2 id="player-queue-title">Priority queue</h2>
      <Table
        caption="The player's queue entries"
        head={['Servers', 'Until', 'Comment', 'Added']}
        empty={queue.entries.length === 0 && 'Not in the queue.'}
      >
        {queue.entries.map((q) => (
          <tr key={q.id}>
            <td>{q.serverIds ? q.serverIds.map((id) => names.get(id) ?? id).join(', ') : 'Every server'}</td>
            <td>{q.permanent ? 'Permanent' : <DateText iso={q.expiresAt} />}</td>
            <td>{q.comment ?? '–'}</td>
            <td>
              <DateText iso={q.createdAt} />
            </td>
          </tr>
        ))}
      </Table>
      <History entries={queue.history} caption="Queue history, newest first" />
    </section>
  );
}

export function TrustOfPlayer({ trust }: { trust: PlayerProfile['trust'] }) {
  const { score, pool, ownSubmissions } = trust;
  return (
    <section aria-labelledby="player-trust-title">
      <h2 id="player-trust-title">Trust</h2>
      {score ? (
        <>
          <p>
            Score <strong>{score.score}</strong> / 100 ({score.band.replace('_', ' ')}), confidence {Math.round(score.confidence * 100)}%.
          </p>
          <ul class="reasons">
            {score.reasons.map((r) => (
              <li key={r}>{r}</li>
            ))}
          </ul>
        </>
      ) : (
        <p>The network has no score for this player.</p>
      )}
      <Table
        caption="Pool entries of the network"
        head={['Community', 'Category', 'State', 'Reported']}
        empty={pool.entries.length === 0 && 'No pool entry.'}
      >
        {pool.entries.map((e, i) => (
          <tr key={`${e.community}-${e.submittedAt}-${i}`}>
            <td>{e.community}</td>
            <td>{categoryWords[e.category]}</td>
            <td>{e.status}</td>
            <td>
              <DateText iso={e.submittedAt} />
            </td>
          </tr>
        ))}
      </Table>
      {ownSubmissions && ownSubmissions.length > 0 && (
        <Table caption="Your community's submissions" head={['Category and reason', 'State', 'Submitted']}>
          {ownSubmissions.map((s) => (
            <tr key={s.id}>
              <td>
                {categoryWords[s.category]}: {s.reason}
              </td>
              <td>{s.status}</td>
              <td>
                <DateText iso={s.createdAt} />
              </td>
            </tr>
          ))}
        </Table>
      )}
    </section>
  );
}

export function NotesOfPlayer({ platformId, initial }: { platformId: string; initial: PlayerNote[] }) {
  const { can } = useSession();
  const manage = can('bans.manage');
  const [notes, setNotes] = useState(initial);
  const [body, setBody] = useState('');
  const action = useAction();
  const add = (e: JSX.TargetedEvent<HTMLFormElement>) => {
    e.preventDefault();
    void action.run(async () => {
      const note = await api<PlayerNote>('POST', `${playerApi(platformId)}/notes`, { body });
      setNotes([note, ...notes]);
      setBody('');
    });
  };
  const remove = (id: string) =>
    action.run(async () => {
      await api('DELETE', `${playerApi(platformId)}/notes/${encodeURIComponent(id)}`);
      setNotes(notes.filter((n) => n.id !== id));
    });
  return (
    <section aria-labelledby="player-notes-title">
      <h2 id="player-notes-title">Private notes</h2>
      <p class="muted">Seen only by your community's users.</p>
      <ErrorText error={action.error} />
      {notes.length === 0 && <p>No notes.</p>}
      <ul class="notes">
        {notes.map((n) => (
          <li key={n.id}>
            <p class="note-body">{n.body}</p>
            <p class="muted">
              {n.createdBy?.name ?? 'Someone'}, <DateText iso={n.createdAt} />
              {manage && (
                <>
                  {' '}
                  <ConfirmButton label="Delete the note" confirmLabel="Delete this note?" onConfirm={() => remove(n.id)} />
                </>
              )}
            </p>
          </li>
        ))}
      </ul>
      {manage && (
        <form onSubmit={add} aria-label="Add a note" class="panel">
          <TextField label="New note" value={body} onInput={setBody} multiline required maxLength={2000} />
          <button type="submit" class="primary" disabled={action.busy}>
            Add the note
          </button>
        </form>
      )}
    </section>
  );
}
