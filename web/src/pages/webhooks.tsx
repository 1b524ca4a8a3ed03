// Webhooks: where the community's events go (Discord channels, or its own services signed per
// Standard Webhooks). The list with each endpoint's state (paused and why, failing since, events
// waiting), a new endpoint (its secret shown once; a Discord endpoint's role to mention when a
// watched player joins), test, pause and resume, secret rotation, removal, and each endpoint's last
// deliveries. PausedWebhooksNotice tells the community on every page when the service paused an
// endpoint after 24 hours of failures.
import { Fragment } from 'preact';
import { useState } from 'preact/hooks';
import { api } from '../api.ts';
import { Link } from '../router.tsx';
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
  SecretBox,
  Table,
  TextField,
  useAction,
  useLoad,
} from '../components.tsx';
import type { ManagedServerList, Webhook, WebhookCreated, WebhookDeliveries, WebhookList } from '../types.ts';

type EventType = Webhook['events'][number];
const eventWords: [EventType, string][] = [
  ['kill', 'Kills (the killfeed)'],
  ['ban.created', 'Bans'],
  ['ban.lifted', 'Bans lifted'],
  ['server.online', 'Server online'],
  ['server.offline', 'Server offline'],
  ['player.watched.joined', 'Watched player joins'],
  ['queue.granted', 'Priority queue granted'],
  ['trust.entry.approved', 'Trust pool entry approved'],
];
const wordOf = new Map(eventWords);

/** The URL without its path: a Discord webhook URL's path is its token, so the list does not show it. */
const originOf = (url: string) => {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
};

/** Discord's ids of roles (snowflakes): what mentionRoleId takes. */
const rolePattern = '[0-9]{17,20}';

/**
 * Shown above every page but this one (to those who manage servers) while the service has paused an
 * endpoint after 24 hours of failed deliveries: its events wait until someone resumes it.
 */
export function PausedWebhooksNotice({ path }: { path: string }) {
  const list = useLoad(() => api<WebhookList>('GET', '/api/webhooks'), [path]);
  const failed = (list.data?.webhooks ?? []).filter((w) => w.pausedBy === 'failures');
  if (path === '/webhooks' || failed.length === 0) return null;
  const names = failed.map((w) => originOf(w.url)).join(', ');
  return (
    <aside class="alert-bar" aria-label="Paused webhooks">
      {failed.length === 1 ? 'A webhook was' : `${failed.length} webhooks were`} paused after 24 hours of failed deliveries ({names}): its
      events wait until you resume it. <Link href="/webhooks">Open the webhooks</Link>.
    </aside>
  );
}

function State({ w }: { w: Webhook }) {
  if (w.paused && w.pausedBy === 'failures')
    return (
      <>
        <Badge tone="bad">Paused after failures</Badge>
        <div class="muted">{w.pausedReason}</div>
      </>
    );
  if (w.paused)
    return (
      <>
        <Badge tone="off">Paused</Badge>
        <div class="muted">{w.pausedReason}</div>
      </>
    );
  if (w.failingSince)
    return (
      <>
        <Badge tone="warn">Failing</Badge>
        <div class="muted">
          since <DateText iso={w.failingSince} />; next try <DateText iso={w.nextAttemptAt} />
        </div>
      </>
    );
  return <Badge tone="ok">Active</Badge>;
}

function Deliveries({ id }: { id: string }) {
  const list = useLoad(() => api<WebhookDeliveries>('GET', `/api/webhooks/${id}/deliveries`), [id]);
  if (list.error) return <ErrorText error={list.error} />;
  if (!list.data) return <Loading what="the deliveries" />;
  return (
    <Table
      caption="Last deliveries"
      head={['Time', 'Events', 'Attempt', 'Outcome', 'Error']}
      empty={list.data.deliveries.length === 0 && 'Nothing sent yet.'}
    >
      {list.data.deliveries.map((d, i) => (
        <tr key={i}>
          <td>
            <DateText iso={d.at} />
          </td>
          <td>{d.eventTypes.join(', ')}</td>
          <td class="num">{d.attempt}</td>
          <td>
            <Badge tone={d.outcome === 'delivered' ? 'ok' : d.outcome === 'failed' ? 'bad' : 'warn'}>
              {d.outcome}
              {d.statusCode !== null ? ` (${d.statusCode})` : ''}
            </Badge>
          </td>
          <td>{d.error ?? ''}</td>
        </tr>
      ))}
    </Table>
  );
}

interface Form {
  url: string;
  format: 'discord' | 'standard';
  events: Set<EventType>;
  scope: 'all' | 'some';
  servers: Set<string>;
  mentionRoleId: string;
}
const emptyForm = (): Form => ({
  url: '',
  format: 'discord',
  events: new Set(['kill']),
  scope: 'all',
  servers: new Set(),
  mentionRoleId: '',
});
const toggled = <T,>(set: Set<T>, value: T) => {
  const next = new Set(set);
  if (!next.delete(value)) next.add(value);
  return next;
};

export function WebhooksPage() {
  const list = useLoad(() => api<WebhookList>('GET', '/api/webhooks'), []);
  const servers = useLoad(() => api<ManagedServerList>('GET', '/api/servers'), []);
  const [f, setF] = useState<Form>(emptyForm);
  // The secret lives only here, until dismissed.
  const [shown, setShown] = useState<{ title: string; secret: string } | null>(null);
  const [done, setDone] = useState('');
  const [open, setOpen] = useState<string | null>(null);
  // The Discord endpoint whose role to mention is being changed, and the id typed.
  const [roleOf, setRoleOf] = useState<{ id: string; role: string } | null>(null);
  const add = useAction();
  const row = useAction();
  const names = new Map((servers.data?.servers ?? []).map((s) => [s.id, s.name]));

  const submit = (e: Event) => {
    e.preventDefault();
    void add.run(async () => {
      if (!f.url.trim()) throw new Problem('Give the URL the events go to.');
      if (f.events.size === 0) throw new Problem('Choose at least one event.');
      if (f.scope === 'some' && f.servers.size === 0) throw new Problem('Choose at least one server, or every server.');
      const role = f.format === 'discord' ? f.mentionRoleId.trim() : '';
      if (role && !new RegExp(`^${rolePattern}$`).test(role)) throw new Problem("A role's id is 17 to 20 digits (Discord: Copy Role ID).");
      const res = await api<WebhookCreated>('POST', '/api/webhooks', {
        url: f.url.trim(),
        format: f.format,
        events: eventWords.map(([v]) => v).filter((v) => f.events.has(v)),
        ...(f.scope === 'some' ? { serverIds: [...f.servers] } : {}),
        ...(role ? { mentionRoleId: role } : {}),
      });
      if (res.secret) setShown({ title: `Signing secret of ${originOf(res.webhook.url)}`, secret: res.secret });
      setDone(`Events now go to ${originOf(res.webhook.url)}.`);
      setF(emptyForm());
      list.reload();
    });
  };
  const change = (w: Webhook, body: Record<string, unknown>, message: string) =>
    row.run(async () => {
      await api('PATCH', `/api/webhooks/${w.id}`, body);
      setDone(message);
      list.reload();
    });
  const saveRole = (e: Event, w: Webhook) => {
    e.preventDefault();
    const role = roleOf?.role.trim() ?? '';
    void row.run(async () => {
      if (role && !new RegExp(`^${rolePattern}$`).test(role)) throw new Problem("A role's id is 17 to 20 digits (Discord: Copy Role ID).");
      await api('PATCH', `/api/webhooks/${w.id}`, { mentionRoleId: role || null });
      setDone(role ? `${originOf(w.url)} mentions the role ${role} when a watched player joins.` : `${originOf(w.url)} mentions no one.`);
      setRoleOf(null);
      list.reload();
    });
  };
  const test = (w: Webhook) =>
    row.run(async () => {
      await api('POST', `/api/webhooks/${w.id}/test`);
      setDone(`A test event waits for ${originOf(w.url)}: its delivery shows in the endpoint's deliveries within seconds.`);
      setOpen(w.id);
      list.reload();
    });
  const rotate = (w: Webhook) =>
    row.run(async () => {
      const res = await api<WebhookCreated>('POST', `/api/webhooks/${w.id}/rotate-secret`);
      setShown({ title: `New signing secret of ${originOf(w.url)}`, secret: res.secret! });
      setDone('The endpoint has a new secret; requests are signed with the old one too for 24 hours.');
      list.reload();
    });
  const remove = (w: Webhook) =>
    row.run(async () => {
      await api('DELETE', `/api/webhooks/${w.id}`);
      setDone(`${originOf(w.url)} gets no more events.`);
      list.reload();
    });

  return (
    <>
      <PageTitle>Webhooks</PageTitle>
      <p>
        Send your community's events to a Discord channel (paste the channel's webhook URL) or to your own service (standard format: each
        request signed, verifiable with any Standard Webhooks library). Events go in order; a failing endpoint is tried again for 24 hours,
        then paused until you resume it.
      </p>
      {shown && (
        <SecretBox
          title={shown.title}
          value={shown.secret}
          onDismiss={() => setShown(null)}
          kept="The service cannot show it again: if it is lost, rotate the secret."
        />
      )}
      {done && <Notice>{done}</Notice>}
      <ErrorText error={list.error ?? row.error} />
      {list.loading && !list.data && <Loading what="the webhooks" />}
      {list.data && (
        <Table
          caption="Webhooks of your community"
          head={['Destination', 'Events', 'Servers', 'State', ['Waiting', 'num'], 'Actions']}
          empty={list.data.webhooks.length === 0 && 'No webhooks yet.'}
        >
          {list.data.webhooks.map((w) => (
            <Fragment key={w.id}>
              <tr>
                <td>
                  {originOf(w.url)}
                  <div class="muted">{w.format === 'discord' ? 'Discord' : 'Standard (signed)'}</div>
                </td>
                <td>
                  {w.events.map((e) => wordOf.get(e) ?? e).join(', ')}
                  {w.mentionRoleId && <div class="muted">Mentions the role {w.mentionRoleId} when a watched player joins</div>}
                </td>
                <td>{w.serverIds ? w.serverIds.map((id) => names.get(id) ?? id).join(', ') : 'Every server'}</td>
                <td>
                  <State w={w} />
                </td>
                <td class="num">{w.waiting}</td>
                <td>
                  <div class="actions">
                    <button type="button" onClick={() => test(w)}>
                      Send a test
                    </button>
                    <button type="button" onClick={() => setOpen(open === w.id ? null : w.id)} aria-expanded={open === w.id}>
                      Deliveries
                    </button>
                    {w.format === 'discord' && (
                      <button
                        type="button"
                        onClick={() => setRoleOf(roleOf?.id === w.id ? null : { id: w.id, role: w.mentionRoleId ?? '' })}
                        aria-expanded={roleOf?.id === w.id}
                      >
                        Role to mention
                      </button>
                    )}
                    {w.paused ? (
                      <button type="button" onClick={() => change(w, { paused: false }, `${originOf(w.url)} is resumed.`)}>
                        Resume
                      </button>
                    ) : (
                      <button type="button" onClick={() => change(w, { paused: true }, `${originOf(w.url)} is paused.`)}>
                        Pause
                      </button>
                    )}
                    {w.format === 'standard' && (
                      <ConfirmButton
                        label="Rotate secret"
                        danger={false}
                        confirmLabel="Make a new secret? The old one keeps signing for 24 hours."
                        onConfirm={() => rotate(w)}
                      />
                    )}
                    <ConfirmButton
                      label="Remove"
                      confirmLabel={`Remove ${originOf(w.url)}? Its waiting events are dropped.`}
                      onConfirm={() => remove(w)}
                    />
                  </div>
                </td>
              </tr>
              {roleOf?.id === w.id && (
                <tr>
                  <td colSpan={6}>
                    <form onSubmit={(e) => saveRole(e, w)} aria-label={`Role to mention of ${originOf(w.url)}`}>
                      <div class="row">
                        <TextField
                          label="Discord role id"
                          value={roleOf.role}
                          onInput={(role) => setRoleOf({ id: w.id, role })}
                          pattern={rolePattern}
                          maxLength={20}
                          hint="Mentioned when a watched player joins. Empty: no one is mentioned."
                        />
                      </div>
                      <button type="submit" disabled={row.busy}>
                        Save the role
                      </button>
                    </form>
                  </td>
                </tr>
              )}
              {open === w.id && (
                <tr>
                  <td colSpan={6}>
                    <Deliveries id={w.id} />
                  </td>
                </tr>
              )}
            </Fragment>
          ))}
        </Table>
      )}
      <section class="panel" aria-labelledby="add-webhook">
        <h2 id="add-webhook">Add a webhook</h2>
        <form onSubmit={submit}>
          <div class="row">
            <TextField
              label="URL"
              value={f.url}
              onInput={(url) => setF({ ...f, url })}
              required
              maxLength={2000}
              hint="https, to a public address: for Discord, the channel's webhook URL."
            />
          </div>
          <Choices
            legend="Format"
            value={f.format}
            onChange={(format) => setF({ ...f, format: format as Form['format'] })}
            options={[
              ['discord', 'Discord: messages with embeds'],
              ['standard', 'Standard Webhooks: signed JSON, for your own service'],
            ]}
          />
          <fieldset class="field">
            <legend>Events</legend>
            {eventWords.map(([v, text]) => (
              <label class="choice" key={v}>
                <input type="checkbox" checked={f.events.has(v)} onChange={() => setF({ ...f, events: toggled(f.events, v) })} /> {text}
              </label>
            ))}
          </fieldset>
          {f.format === 'discord' && (
            <div class="row">
              <TextField
                label="Role to mention (optional)"
                value={f.mentionRoleId}
                onInput={(mentionRoleId) => setF({ ...f, mentionRoleId })}
                pattern={rolePattern}
                maxLength={20}
                hint="When a watched player joins, the message mentions this Discord role (its id: in Discord, Server Settings, Roles, Copy Role ID). Empty: no one is mentioned."
              />
            </div>
          )}
          <Choices
            legend="Servers (kills, online and offline, watched players)"
            value={f.scope}
            onChange={(scope) => setF({ ...f, scope: scope as Form['scope'] })}
            options={[
              ['all', 'Every server of the community'],
              ['some', 'Only the servers chosen below'],
            ]}
          />
          {f.scope === 'some' && (
            <fieldset class="field">
              <legend>Servers</legend>
              {(servers.data?.servers ?? []).map((s) => (
                <label class="choice" key={s.id}>
                  <input type="checkbox" checked={f.servers.has(s.id)} onChange={() => setF({ ...f, servers: toggled(f.servers, s.id) })} />{' '}
                  {s.name}
                </label>
              ))}
            </fieldset>
          )}
          <ErrorText error={add.error} />
          <button class="primary" type="submit" disabled={add.busy}>
            Add webhook
          </button>
        </form>
      </section>
    </>
  );
}
