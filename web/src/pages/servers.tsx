// The community's servers: online state, players, fps, last seen; add, edit, revoke, and rotate the
// ingest token (shown once, with the agent's command line filled in for that server).
import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../api.ts';
import { Badge, ConfirmButton, CopyButton, ErrorText, Loading, Notice, PageTitle, SecretBox, Table, TextField, TimeAgo, useAction, useLoad } from '../components.tsx';
import { formatCount, formatFps } from '../format.ts';
import { Link } from '../router.tsx';
import { useSession } from '../session.tsx';
import type { ManagedServer } from '../types.ts';

/** The agent's command line for one server, as the README's "Connect your DayZ server" gives it. */
function AgentCommand({ serverId, token }: { serverId: string; token: string }) {
  const [profile, setProfile] = useState('/home/dayz/serverprofile');
  const folder = /\s/.test(profile) ? `'${profile.replaceAll("'", "'\\''")}'` : profile;
  const command = `npm run agent -- --url ${location.origin} --server ${serverId} --token ${token} \\\n  --logs ${folder} --files ${folder}`;
  return (
    <div>
      <h4>Connect the game server</h4>
      <p>Run the agent beside the DayZ server, in a copy of this project. It reads the admin logs (<code>*.ADM</code>) of the
        server's profile folder and keeps <code>ban.txt</code> and <code>priority.txt</code> there.</p>
      <TextField label="Server profile folder" value={profile} onInput={setProfile} hint="The -profiles= folder of the DayZ server's command line." />
      <code class="block" data-testid="agent-command">{command}</code>
      <CopyButton text={command} label="Copy the command" />
    </div>
  );
}

interface ServerForm { name: string; banFilePath: string; priorityFilePath: string; restartCommand: string }
const emptyForm: ServerForm = { name: '', banFilePath: '', priorityFilePath: '', restartCommand: '' };
const body = (f: ServerForm) => ({
  name: f.name.trim(), banFilePath: f.banFilePath.trim() || null, priorityFilePath: f.priorityFilePath.trim() || null, restartCommand: f.restartCommand.trim() || null,
});

function ServerFields({ form, set }: { form: ServerForm; set: (f: ServerForm) => void }) {
  return (
    <div class="grid2">
      <TextField label="Name" value={form.name} onInput={(name) => set({ ...form, name })} required maxLength={100} />
      <TextField label="Ban file path (optional)" value={form.banFilePath} onInput={(banFilePath) => set({ ...form, banFilePath })}
        hint="Where this host writes the server's ban.txt; leave empty when the agent pulls it." />
      <TextField label="Priority file path (optional)" value={form.priorityFilePath} onInput={(priorityFilePath) => set({ ...form, priorityFilePath })} />
      <TextField label="Restart command (optional)" value={form.restartCommand} onInput={(restartCommand) => set({ ...form, restartCommand })}
        hint="Run after the files are synced when someone restarts the server from here." />
    </div>
  );
}

export function ServersPage() {
  const { can } = useSession();
  const manage = can('servers.manage');
  const list = useLoad(() => api<{ servers: ManagedServer[] }>('GET', '/api/servers'), []);
  const [form, setForm] = useState<ServerForm>(emptyForm);
  const [shown, setShown] = useState<{ title: string; serverId: string; token: string } | null>(null);
  const [editing, setEditing] = useState<ManagedServer | null>(null);
  const [done, setDone] = useState('');
  const add = useAction();
  const row = useAction();

  const create = (e: Event) => {
    e.preventDefault();
    void add.run(async () => {
      const res = await api<{ server: ManagedServer; ingestToken: string }>('POST', '/api/servers', body(form));
      setShown({ title: `Ingest token of ${res.server.name}`, serverId: res.server.id, token: res.ingestToken });
      setForm(emptyForm);
      list.reload();
    });
  };

  return (
    <>
      <PageTitle>Servers</PageTitle>
      {shown && (
        <SecretBox title={shown.title} value={shown.token} onDismiss={() => setShown(null)}>
          <AgentCommand serverId={shown.serverId} token={shown.token} />
        </SecretBox>
      )}
      {done && <Notice>{done}</Notice>}
      <ErrorText error={list.error ?? row.error} />
      {list.loading && !list.data && <Loading what="the servers" />}
      {list.data && (
        <Table caption="Servers of your community" head={['Name', 'State', ['Players', 'num'], ['FPS', 'num'], 'Last seen', ...(manage ? ['Actions'] : [])]}
          empty={list.data.servers.length === 0 && 'No servers yet.'}>
          {list.data.servers.map((s) => (
            <tr key={s.id}>
              <td><Link href={`/servers/${s.id}`}>{s.name}</Link>{s.map && <div class="muted">{s.map}</div>}</td>
              <td>{s.online ? <Badge tone="ok">Online</Badge> : <Badge tone="off">Offline</Badge>}</td>
              <td class="num">{s.online ? formatCount(s.players) : '–'}</td>
              <td class="num">{s.online ? formatFps(s.fps) : '–'}</td>
              <td><TimeAgo iso={s.lastSeenAt} /></td>
              {manage && (
                <td>
                  <div class="actions">
                    <button type="button" onClick={() => setEditing(s)}>Edit<span class="visually-hidden"> {s.name}</span></button>
                    <ConfirmButton label="New ingest token" confirmLabel={`The old token of ${s.name} stops working at once. Continue?`} danger={false}
                      onConfirm={() => row.run(async () => {
                        const res = await api<{ ingestToken: string }>('POST', `/api/servers/${s.id}/ingest-token`);
                        setShown({ title: `New ingest token of ${s.name}`, serverId: s.id, token: res.ingestToken });
                      })} />
                    <ConfirmButton label="Revoke" confirmLabel={`Revoke ${s.name}? Its token stops working and it leaves every list.`}
                      onConfirm={() => row.run(async () => {
                        await api('DELETE', `/api/servers/${s.id}`);
                        setDone(`${s.name} revoked.`);
                        list.reload();
                      })} />
                  </div>
                </td>
              )}
            </tr>
          ))}
        </Table>
      )}
      {editing && (
        <EditServer server={editing} key={editing.id} onClose={(saved) => {
          setEditing(null);
          if (saved) {
            setDone(`${saved} saved.`);
            list.reload();
          }
        }} />
      )}
      {manage && (
        <section class="panel" aria-labelledby="add-server">
          <h2 id="add-server">Add a server</h2>
          <form onSubmit={create}>
            <ServerFields form={form} set={setForm} />
            <ErrorText error={add.error} />
            <button class="primary" type="submit" disabled={add.busy}>Add server</button>
          </form>
        </section>
      )}
    </>
  );
}

function EditServer({ server, onClose }: { server: ManagedServer; onClose: (saved?: string) => void }) {
  const [form, setForm] = useState<ServerForm>({
    name: server.name, banFilePath: server.banFilePath ?? '', priorityFilePath: server.priorityFilePath ?? '', restartCommand: server.restartCommand ?? '',
  });
  const save = useAction();
  const submit = (e: Event) => {
    e.preventDefault();
    void save.run(async () => {
      const saved = await api<ManagedServer>('PATCH', `/api/servers/${server.id}`, body(form));
      onClose(saved.name);
    });
  };
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section class="panel" aria-labelledby="edit-server">
      <h2 id="edit-server" ref={heading} tabIndex={-1}>Edit {server.name}</h2>
      <form onSubmit={submit}>
        <ServerFields form={form} set={setForm} />
        <ErrorText error={save.error} />
        <div class="actions">
          <button class="primary" type="submit" disabled={save.busy}>Save</button>
          <button type="button" onClick={() => onClose()}>Cancel</button>
        </div>
      </form>
    </section>
  );
}
