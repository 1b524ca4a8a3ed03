// The community's servers: online state, players, fps, last seen; add, edit, revoke, and rotate the
// ingest token (shown once, with the agent's command line filled in for that server).
import { Fragment } from 'preact';
import { useState } from 'preact/hooks';
import { api } from '../api.ts';
import {
  Badge,
  ConfirmButton,
  ErrorText,
  Loading,
  Notice,
  PageTitle,
  refocus,
  SecretBox,
  Table,
  TextField,
  TimeAgo,
  useAction,
  useLoad,
  useOpenedPanel,
} from '../components.tsx';
import { formatCount, formatFps } from '../format.ts';
import { Link } from '../router.tsx';
import { useSession } from '../session.tsx';
import type { ManagedServer, ManagedServerList, ServerCreated } from '../types.ts';
import { AgentCommand } from './agent-command.tsx';

interface ServerForm {
  name: string;
  banFilePath: string;
  priorityFilePath: string;
}
const emptyForm: ServerForm = { name: '', banFilePath: '', priorityFilePath: '' };
const editButtonId = (serverId: string) => `edit-server-${serverId}`;
/**
 * What the form sends. File paths on the service's host are the network operator's alone: others
 * never send them, so saving a name keeps the paths the operator set.
 */
const body = (f: ServerForm, filePaths: boolean) => ({
  name: f.name.trim(),
  ...(filePaths ? { banFilePath: f.banFilePath.trim() || null, priorityFilePath: f.priorityFilePath.trim() || null } : {}),
});

function ServerFields({ form, set, filePaths }: { form: ServerForm; set: (f: ServerForm) => void; filePaths: boolean }) {
  return (
    <div class="grid2">
      <TextField label="Name" value={form.name} onInput={(name) => set({ ...form, name })} required maxLength={100} />
      {filePaths && (
        <>
          <TextField
            label="Ban file path (optional)"
            value={form.banFilePath}
            onInput={(banFilePath) => set({ ...form, banFilePath })}
            hint="A ban.txt this service writes on its own host, inside the operator's GAME_FILES_DIR. Communities keep theirs on the game host through the agent's --files."
          />
          <TextField
            label="Priority file path (optional)"
            value={form.priorityFilePath}
            onInput={(priorityFilePath) => set({ ...form, priorityFilePath })}
            hint="A priority.txt on this service's host, likewise; leave both empty when the agent keeps the files."
          />
        </>
      )}
    </div>
  );
}

export function ServersPage() {
  const { can } = useSession();
  const manage = can('servers.manage');
  const filePaths = can('accounts.manage');
  const list = useLoad(() => api<ManagedServerList>('GET', '/api/servers'), []);
  const [form, setForm] = useState<ServerForm>(emptyForm);
  const [shown, setShown] = useState<{ title: string; serverId: string; token: string } | null>(null);
  const [editing, setEditing] = useState<ManagedServer | null>(null);
  const [done, setDone] = useState('');
  const add = useAction();
  const row = useAction();

  const create = (e: Event) => {
    e.preventDefault();
    void add.run(async () => {
      const res = await api<ServerCreated>('POST', '/api/servers', body(form, filePaths));
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
        <Table
          caption="Servers of your community"
          head={['Name', 'State', ['Players', 'num'], ['FPS', 'num'], 'Last seen', ...(manage ? ['Actions'] : [])]}
          empty={list.data.servers.length === 0 && 'No servers yet.'}
        >
          {list.data.servers.map((s) => (
            <Fragment key={s.id}>
              <tr>
                <td>
                  <Link href={`/servers/${s.id}`}>{s.name}</Link>
                  {s.map && <div class="muted">{s.map}</div>}
                </td>
                <td>{s.online ? <Badge tone="ok">Online</Badge> : <Badge tone="off">Offline</Badge>}</td>
                <td class="num">{s.online ? formatCount(s.players) : '–'}</td>
                <td class="num">{s.online ? formatFps(s.fps) : '–'}</td>
                <td>
                  <TimeAgo iso={s.lastSeenAt} />
                </td>
                {manage && (
                  <td>
                    <div class="actions">
                      <button type="button" id={editButtonId(s.id)} onClick={() => setEditing(s)}>
                        Edit<span class="visually-hidden"> {s.name}</span>
                      </button>
                      <ConfirmButton
                        label="New ingest token"
                        confirmLabel={`The old token of ${s.name} stops working at once. Continue?`}
                        danger={false}
                        onConfirm={() =>
                          row.run(async () => {
                            const res = await api<{ ingestToken: string }>('POST', `/api/servers/${s.id}/ingest-token`);
                            setShown({ title: `New ingest token of ${s.name}`, serverId: s.id, token: res.ingestToken });
                          })
                        }
                      />
                      <ConfirmButton
                        label="Revoke"
                        confirmLabel={`Revoke ${s.name}? Its token stops working and it leaves every list.`}
                        onConfirm={() =>
                          row.run(async () => {
                            await api('DELETE', `/api/servers/${s.id}`);
                            setShown((t) => (t?.serverId === s.id ? null : t));
                            setDone(`${s.name} revoked.`);
                            list.reload();
                          })
                        }
                      />
                    </div>
                  </td>
                )}
              </tr>
              {editing?.id === s.id && (
                // The form opens under the row whose Edit was pressed, not below the whole list.
                <tr class="row-panel">
                  <td colSpan={6}>
                    <EditServer
                      server={editing}
                      key={editing.id}
                      onClose={(saved) => {
                        refocus(editButtonId(editing.id));
                        setEditing(null);
                        if (saved) {
                          setDone(`${saved} saved.`);
                          list.reload();
                        }
                      }}
                    />
                  </td>
                </tr>
              )}
            </Fragment>
          ))}
        </Table>
      )}
      {manage && (
        <section class="panel" aria-labelledby="add-server">
          <h2 id="add-server">Add a server</h2>
          <form onSubmit={create}>
            <ServerFields form={form} set={setForm} filePaths={filePaths} />
            <ErrorText error={add.error} />
            <button class="primary" type="submit" disabled={add.busy}>
              Add server
            </button>
          </form>
        </section>
      )}
    </>
  );
}

function EditServer({ server, onClose }: { server: ManagedServer; onClose: (saved?: string) => void }) {
  const filePaths = useSession().can('accounts.manage');
  const [form, setForm] = useState<ServerForm>({
    name: server.name,
    banFilePath: server.banFilePath ?? '',
    priorityFilePath: server.priorityFilePath ?? '',
  });
  const save = useAction();
  const submit = (e: Event) => {
    e.preventDefault();
    void save.run(async () => {
      const saved = await api<ManagedServer>('PATCH', `/api/servers/${server.id}`, body(form, filePaths));
      onClose(saved.name);
    });
  };
  const heading = useOpenedPanel<HTMLHeadingElement>();
  return (
    <section class="panel" aria-labelledby="edit-server">
      <h2 id="edit-server" ref={heading} tabIndex={-1}>
        Edit {server.name}
      </h2>
      <form onSubmit={submit}>
        <ServerFields form={form} set={setForm} filePaths={filePaths} />
        <ErrorText error={save.error} />
        <div class="actions">
          <button class="primary" type="submit" disabled={save.busy}>
            Save
          </button>
          <button type="button" onClick={() => onClose()}>
            Cancel
          </button>
        </div>
      </form>
    </section>
  );
}
