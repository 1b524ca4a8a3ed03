// Users and roles of the community: add, change role, set a new password, remove.
import { useState } from 'preact/hooks';
import { api } from '../api.ts';
import {
  ConfirmButton,
  DateText,
  ErrorText,
  Loading,
  Notice,
  PageTitle,
  SelectField,
  Table,
  TextField,
  useAction,
  useLoad,
} from '../components.tsx';
import { useSession } from '../session.tsx';
import { roles } from '../types.ts';
import type { Role, User, UserList } from '../types.ts';

const roleWords: Record<Role, string> = {
  owner: 'Owner: everything, users included',
  admin: 'Admin: everything but users',
  moderator: 'Moderator: bans, queue, pool submissions',
  viewer: 'Viewer: reads servers and trust',
};
const roleOptions = roles.map((r): [string, string] => [r, roleWords[r]]);

export function UsersPage() {
  const { info } = useSession();
  const users = useLoad(() => api<UserList>('GET', '/api/users'), []);
  const [done, setDone] = useState('');
  const row = useAction();
  const changed = (message: string) => {
    setDone(message);
    users.reload();
  };

  return (
    <>
      <PageTitle>Users and roles</PageTitle>
      {done && <Notice>{done}</Notice>}
      <ErrorText error={users.error ?? row.error} />
      {users.loading && !users.data && <Loading what="the users" />}
      {users.data && (
        <Table caption="Users of your community" head={['Username', 'Role', 'Added', 'Actions']}>
          {users.data.users.map((u) => (
            <tr key={u.id}>
              <td>
                {u.username}
                {u.id === info.user.id && <span class="muted"> (you)</span>}
              </td>
              <td>
                <RoleSelect user={u} onDone={changed} />
              </td>
              <td>
                <DateText iso={u.createdAt} />
              </td>
              <td>
                <div class="actions">
                  <NewPassword user={u} onDone={changed} />
                  {u.id !== info.user.id && (
                    <ConfirmButton
                      label="Remove"
                      confirmLabel={`Remove ${u.username}? Their sessions end at once.`}
                      onConfirm={() =>
                        row.run(async () => {
                          await api('DELETE', `/api/users/${u.id}`);
                          changed(`${u.username} is removed.`);
                        })
                      }
                    />
                  )}
                </div>
              </td>
            </tr>
          ))}
        </Table>
      )}
      <AddUser onDone={changed} />
    </>
  );
}

function RoleSelect({ user, onDone }: { user: User; onDone: (message: string) => void }) {
  const [role, setRole] = useState<string>(user.role);
  const action = useAction();
  const save = (e: Event) => {
    e.preventDefault();
    void action.run(async () => {
      await api('PATCH', `/api/users/${user.id}`, { role });
      onDone(`${user.username} is now ${role}; their sessions ended, so they sign in again.`);
    });
  };
  return (
    <form onSubmit={save} class="row">
      <SelectField label={`Role of ${user.username}`} value={role} onChange={setRole} options={roleOptions} />
      {role !== user.role && (
        <div class="field button">
          <button type="submit" disabled={action.busy}>
            Save role
          </button>
        </div>
      )}
      <ErrorText error={action.error} />
    </form>
  );
}

function NewPassword({ user, onDone }: { user: User; onDone: (message: string) => void }) {
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const action = useAction();
  if (!open)
    return (
      <button type="button" onClick={() => setOpen(true)}>
        New password<span class="visually-hidden"> for {user.username}</span>
      </button>
    );
  const save = (e: Event) => {
    e.preventDefault();
    void action.run(async () => {
      await api('PATCH', `/api/users/${user.id}`, { password });
      setOpen(false);
      onDone(`${user.username} has a new password; their sessions ended.`);
    });
  };
  return (
    <form onSubmit={save} class="row">
      <TextField
        label={`New password for ${user.username}`}
        type="password"
        value={password}
        onInput={setPassword}
        required
        minLength={10}
        maxLength={200}
        autoComplete="new-password"
      />
      <div class="field button actions">
        <button class="primary" type="submit" disabled={action.busy}>
          Set
        </button>
        <button type="button" onClick={() => setOpen(false)}>
          Cancel
        </button>
      </div>
      <ErrorText error={action.error} />
    </form>
  );
}

function AddUser({ onDone }: { onDone: (message: string) => void }) {
  const [f, setF] = useState({ username: '', password: '', role: 'moderator' });
  const action = useAction();
  const submit = (e: Event) => {
    e.preventDefault();
    void action.run(async () => {
      const user = await api<User>('POST', '/api/users', f);
      setF({ username: '', password: '', role: f.role });
      onDone(`${user.username} is added as ${user.role}.`);
    });
  };
  return (
    <section class="panel" aria-labelledby="add-user">
      <h2 id="add-user">Add a user</h2>
      <form onSubmit={submit}>
        <div class="grid2">
          <TextField
            label="Username"
            value={f.username}
            onInput={(username) => setF({ ...f, username })}
            required
            minLength={3}
            maxLength={64}
            pattern="[A-Za-z0-9._\-]+"
            autoComplete="off"
            hint="3 to 64 letters, digits, dots, dashes or underscores."
          />
          <TextField
            label="Password"
            type="password"
            value={f.password}
            onInput={(password) => setF({ ...f, password })}
            required
            minLength={10}
            maxLength={200}
            autoComplete="new-password"
            hint="At least 10 characters. Tell it to the person; they cannot change it themselves yet."
          />
        </div>
        <SelectField label="Role" value={f.role} onChange={(role) => setF({ ...f, role })} options={roleOptions} />
        <ErrorText error={action.error} />
        <button class="primary" type="submit" disabled={action.busy}>
          Add user
        </button>
      </form>
    </section>
  );
}
