// Account -> API keys: the Data API keys of the community; a new key is shown once; revoke.
import { useState } from 'preact/hooks';
import { api } from '../api.ts';
import {
  Badge,
  ConfirmButton,
  DateText,
  ErrorText,
  Loading,
  Notice,
  PageTitle,
  SecretBox,
  SelectField,
  Table,
  TextField,
  useAction,
  useLoad,
} from '../components.tsx';
import { useSession } from '../session.tsx';
import { apiKeyRatesInWords, apiKeyTierOptions } from '../limits.ts';
import type { ApiKeyCreated, ApiKeyList, Limits } from '../types.ts';

export function ApiKeysPage() {
  const { can } = useSession();
  const keys = useLoad(() => api<ApiKeyList>('GET', '/api/account/api-keys'), []);
  const limits = useLoad(() => api<Limits>('GET', '/api/limits'), []);
  const [name, setName] = useState('');
  const [tier, setTier] = useState('standard');
  const [minted, setMinted] = useState<{ id: string; name: string; key: string } | null>(null);
  const [done, setDone] = useState('');
  const mint = useAction();
  const row = useAction();

  const submit = (e: Event) => {
    e.preventDefault();
    void mint.run(async () => {
      const res = await api<ApiKeyCreated>('POST', '/api/account/api-keys', { name: name.trim(), tier });
      setMinted({ id: res.id, name: res.name, key: res.key });
      setName('');
      keys.reload();
    });
  };

  return (
    <>
      <PageTitle>API keys</PageTitle>
      <p>
        Keys for the read-only Data API (<code>/api/v1/data/…</code>): server status, online players, leaderboards, the killfeed and ban
        lists of your community. Send one as <code>Authorization: Bearer &lt;key&gt;</code>.
        {limits.data && ` ${apiKeyRatesInWords(limits.data)}`}
      </p>
      {minted && (
        <SecretBox title={`API key "${minted.name}"`} value={minted.key} onDismiss={() => setMinted(null)}>
          <p>Try it:</p>
          <code class="block">
            curl -s -H 'Authorization: Bearer {minted.key}' {location.origin}/api/v1/data/servers
          </code>
        </SecretBox>
      )}
      {done && <Notice>{done}</Notice>}
      <ErrorText error={keys.error ?? row.error ?? limits.error} />
      {keys.loading && !keys.data && <Loading what="the keys" />}
      {keys.data && (
        <Table
          caption="API keys of your community"
          head={['Name', 'Tier', 'Created', 'State', 'Actions']}
          empty={keys.data.keys.length === 0 && 'No keys yet.'}
        >
          {keys.data.keys.map((k) => (
            <tr key={k.id}>
              <td>{k.name}</td>
              <td>{k.tier}</td>
              <td>
                <DateText iso={k.createdAt} />
              </td>
              <td>{k.revokedAt ? <Badge tone="off">Revoked</Badge> : <Badge tone="ok">Active</Badge>}</td>
              <td>
                {!k.revokedAt && (
                  <ConfirmButton
                    label="Revoke"
                    confirmLabel={`Revoke "${k.name}"? Clients using it get 401 at once.`}
                    onConfirm={() =>
                      row.run(async () => {
                        await api('DELETE', `/api/account/api-keys/${k.id}`);
                        // A revoked key's "shown once" panel would offer a key that no longer works.
                        setMinted((m) => (m?.id === k.id ? null : m));
                        setDone(`"${k.name}" is revoked.`);
                        keys.reload();
                      })
                    }
                  />
                )}
              </td>
            </tr>
          ))}
        </Table>
      )}
      <section class="panel" aria-labelledby="mint-key">
        <h2 id="mint-key">Create a key</h2>
        <form onSubmit={submit}>
          <div class="row">
            <TextField
              label="Name"
              value={name}
              onInput={setName}
              required
              maxLength={100}
              hint="What uses it, e.g. the community website."
            />
            <SelectField
              label="Tier"
              value={tier}
              onChange={setTier}
              options={apiKeyTierOptions(can('partners.manage') ? ['standard', 'partner'] : ['standard'], limits.data)}
              hint={can('partners.manage') ? undefined : 'Partner keys are issued by the network operator.'}
            />
          </div>
          <ErrorText error={mint.error} />
          <button class="primary" type="submit" disabled={mint.busy}>
            Create key
          </button>
        </form>
      </section>
    </>
  );
}
