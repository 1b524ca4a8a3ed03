// Network operator: the communities of the network (add one with its owner) and the Data API switch.
import { useState } from 'preact/hooks';
import { api } from '../api.ts';
import { Badge, DateText, ErrorText, Loading, Notice, PageTitle, Table, TextField, useAction, useLoad } from '../components.tsx';
import type { AccountList, DataApiSwitch } from '../types.ts';

export function AccountsPage() {
  const list = useLoad(() => api<AccountList>('GET', '/api/accounts'), []);
  const [f, setF] = useState({ accountName: '', username: '', password: '' });
  const [done, setDone] = useState('');
  const add = useAction();
  const submit = (e: Event) => {
    e.preventDefault();
    void add.run(async () => {
      await api('POST', '/api/accounts', { accountName: f.accountName.trim(), username: f.username.trim(), password: f.password });
      setDone(`${f.accountName.trim()} is added; ${f.username.trim()} can sign in as its owner.`);
      setF({ accountName: '', username: '', password: '' });
      list.reload();
    });
  };
  return (
    <>
      <PageTitle>Communities</PageTitle>
      {done && <Notice>{done}</Notice>}
      <ErrorText error={list.error} />
      {list.loading && !list.data && <Loading what="the communities" />}
      {list.data && (
        <Table caption="Communities of the network, oldest first" head={['Name', ['Live servers', 'num'], 'Added', 'Id']}>
          {list.data.accounts.map((a) => (
            <tr key={a.id}>
              <td>
                {a.name} {a.isOperator && <Badge tone="warn">Operator</Badge>}
              </td>
              <td class="num">{a.servers}</td>
              <td>
                <DateText iso={a.createdAt} />
              </td>
              <td class="mono">{a.id}</td>
            </tr>
          ))}
        </Table>
      )}
      <div class="grid2">
        <section class="panel" aria-labelledby="add-account">
          <h2 id="add-account">Add a community</h2>
          <form onSubmit={submit}>
            <TextField
              label="Community name"
              value={f.accountName}
              onInput={(accountName) => setF({ ...f, accountName })}
              required
              maxLength={100}
            />
            <TextField
              label="Owner's username"
              value={f.username}
              onInput={(username) => setF({ ...f, username })}
              required
              minLength={3}
              maxLength={64}
              pattern="[A-Za-z0-9._\-]+"
              autoComplete="off"
            />
            <TextField
              label="Owner's password"
              type="password"
              value={f.password}
              onInput={(password) => setF({ ...f, password })}
              required
              minLength={10}
              maxLength={200}
              autoComplete="new-password"
              hint="At least 10 characters; hand it to the owner."
            />
            <ErrorText error={add.error} />
            <button class="primary" type="submit" disabled={add.busy}>
              Add community
            </button>
          </form>
        </section>
        <DataApiSwitch />
      </div>
    </>
  );
}

function DataApiSwitch() {
  const state = useLoad(() => api<DataApiSwitch>('GET', '/api/operator/data-api'), []);
  const action = useAction();
  const flip = () =>
    void action.run(async () => {
      await api('PUT', '/api/operator/data-api', { enabled: !state.data?.enabled });
      state.reload();
    });
  return (
    <section class="panel" aria-labelledby="data-api-switch">
      <h2 id="data-api-switch">Data API</h2>
      <ErrorText error={state.error ?? action.error} />
      {state.data && (
        <>
          <p>
            The Data API is <strong>{state.data.enabled ? 'on' : 'off'}</strong> for every community
            {state.data.enabled ? '.' : ': its routes answer 503.'}
          </p>
          <button type="button" class={state.data.enabled ? 'danger' : 'primary'} onClick={flip} disabled={action.busy}>
            {state.data.enabled ? 'Turn the Data API off' : 'Turn the Data API on'}
          </button>
        </>
      )}
    </section>
  );
}
