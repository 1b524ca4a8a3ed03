// Network operator: partner keys of the trust export feed (tier basic or premium); shown once; revoke.
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
import { partnerKeyTierOptions } from '../limits.ts';
import type { Limits, PartnerKeyCreated, PartnerKeyList } from '../types.ts';

export function PartnerKeysPage() {
  const keys = useLoad(() => api<PartnerKeyList>('GET', '/api/trust/partner-keys'), []);
  const limits = useLoad(() => api<Limits>('GET', '/api/limits'), []);
  const [name, setName] = useState('');
  const [tier, setTier] = useState('basic');
  const [issued, setIssued] = useState<{ id: string; name: string; key: string } | null>(null);
  const [done, setDone] = useState('');
  const issue = useAction();
  const row = useAction();
  const submit = (e: Event) => {
    e.preventDefault();
    void issue.run(async () => {
      const res = await api<PartnerKeyCreated>('POST', '/api/trust/partner-keys', { name: name.trim(), tier });
      setIssued({ id: res.id, name: res.name, key: res.key });
      setName('');
      keys.reload();
    });
  };
  return (
    <>
      <PageTitle>Partner keys</PageTitle>
      <p>
        Partners mirror the community ban pool through the export feed (<code>/api/v1/trust/export</code>) with one of these keys.
      </p>
      {issued && (
        <SecretBox title={`Partner key "${issued.name}"`} value={issued.key} onDismiss={() => setIssued(null)}>
          <code class="block">
            curl -s -H 'Authorization: Bearer {issued.key}' {location.origin}/api/v1/trust/export
          </code>
        </SecretBox>
      )}
      {done && <Notice>{done}</Notice>}
      <ErrorText error={keys.error ?? row.error ?? limits.error} />
      {keys.loading && !keys.data && <Loading what="the keys" />}
      {keys.data && (
        <Table
          caption="Partner keys"
          head={['Name', 'Tier', 'Issued', 'State', 'Actions']}
          empty={keys.data.keys.length === 0 && 'No partner keys yet.'}
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
                    confirmLabel={`Revoke "${k.name}"? The partner's next page answers 401.`}
                    onConfirm={() =>
                      row.run(async () => {
                        await api('DELETE', `/api/trust/partner-keys/${k.id}`);
                        setIssued((i) => (i?.id === k.id ? null : i));
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
      <section class="panel" aria-labelledby="issue-partner-key">
        <h2 id="issue-partner-key">Issue a partner key</h2>
        <form onSubmit={submit}>
          <div class="row">
            <TextField label="Partner name" value={name} onInput={setName} required maxLength={100} />
            <SelectField label="Tier" value={tier} onChange={setTier} options={partnerKeyTierOptions(['basic', 'premium'], limits.data)} />
          </div>
          <ErrorText error={issue.error} />
          <button class="primary" type="submit" disabled={issue.busy}>
            Issue key
          </button>
        </form>
      </section>
    </>
  );
}
