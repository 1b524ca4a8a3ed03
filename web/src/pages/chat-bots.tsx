// The community's chat bots: the list (made, last rotation, how long the old secret still works),
// a new bot or a rotated secret shown once, removal, and whether unsigned chat calls are refused.
import { useState } from 'preact/hooks';
import { api } from '../api.ts';
import { ConfirmButton, DateText, ErrorText, Loading, Notice, Problem, Table, TextField, useAction, useLoad } from '../components.tsx';
import { formatDateTime } from '../format.ts';
import { useTimeSettings } from '../time-settings.ts';
import type { ChatBot, ChatBotCreated, ChatBotList } from '../types.ts';
import { BotSecret } from './chat-bot-secret.tsx';
import type { ShownSecret } from './chat-bot-secret.tsx';
import { UnsignedCalls } from './chat-unsigned.tsx';

/** Until when the secret before the last rotation still works; null once it no longer does. */
const overlapUntil = (bot: ChatBot) =>
  bot.previousSecretValidUntil !== null && Date.parse(bot.previousSecretValidUntil) > Date.now() ? bot.previousSecretValidUntil : null;

export function ChatBots() {
  const list = useLoad(() => api<ChatBotList>('GET', '/api/chat/bots'), []);
  const settings = useTimeSettings();
  const [name, setName] = useState('');
  // The secret lives only here, until dismissed.
  const [shown, setShown] = useState<ShownSecret | null>(null);
  const [done, setDone] = useState('');
  const add = useAction();
  const row = useAction();

  const submit = (e: Event) => {
    e.preventDefault();
    void add.run(async () => {
      if (!name.trim()) throw new Problem('Give the bot a name.');
      const res = await api<ChatBotCreated>('POST', '/api/chat/bots', { name: name.trim() });
      setShown({ title: `Secret of the bot "${res.bot.name}"`, ...res });
      setDone(`"${res.bot.name}" is added.`);
      setName('');
      list.reload();
    });
  };
  const rotate = (b: ChatBot) =>
    row.run(async () => {
      const res = await api<ChatBotCreated>('POST', `/api/chat/bots/${b.id}/secret`);
      setShown({ title: `New secret of the bot "${res.bot.name}"`, ...res });
      const until = res.bot.previousSecretValidUntil;
      setDone(
        `"${b.name}" has a new secret; the old one keeps working ${until ? `until ${formatDateTime(until, settings)}` : 'for 24 hours'}.`,
      );
      list.reload();
    });
  const remove = (b: ChatBot) =>
    row.run(async () => {
      await api('DELETE', `/api/chat/bots/${b.id}`);
      setShown((s) => (s?.bot.id === b.id ? null : s));
      setDone(`"${b.name}" is removed: its calls are refused from now on.`);
      list.reload();
    });

  return (
    <section aria-labelledby="chat-bots">
      <h2 id="chat-bots">Chat bots</h2>
      <p>
        A bot signs each of its calls with its secret and names itself with its bot id; a signed call acts in this community, with the role
        the chat user has below. Give each program that calls a bot of its own, rotate a secret that may have leaked, and remove a bot you
        no longer run.
      </p>
      {shown && <BotSecret key={shown.secret} shown={shown} onDismiss={() => setShown(null)} />}
      {done && <Notice>{done}</Notice>}
      <ErrorText error={list.error ?? row.error} />
      {list.loading && !list.data && <Loading what="the bots" />}
      {list.data && (
        <Table
          caption="Chat bots of your community"
          head={['Name', 'Bot id (X-Chat-Bot)', 'Created', 'Last rotation', 'Actions']}
          empty={list.data.bots.length === 0 && 'No bots yet.'}
        >
          {list.data.bots.map((b) => {
            const until = overlapUntil(b);
            return (
              <tr key={b.id}>
                <td>{b.name}</td>
                <td class="mono">{b.id}</td>
                <td>
                  <DateText iso={b.createdAt} />
                </td>
                <td>
                  <DateText iso={b.rotatedAt} none="Never" />
                  {until && (
                    <div class="muted">
                      Old secret valid until <DateText iso={until} />
                    </div>
                  )}
                </td>
                <td>
                  <div class="actions">
                    <ConfirmButton
                      label="Rotate secret"
                      danger={false}
                      confirmLabel={`Give "${b.name}" a new secret? The old secret keeps working for 24 hours.`}
                      onConfirm={() => rotate(b)}
                    />
                    <ConfirmButton
                      label="Remove"
                      confirmLabel={`Remove "${b.name}"? Its calls are refused at once.`}
                      onConfirm={() => remove(b)}
                    />
                  </div>
                </td>
              </tr>
            );
          })}
        </Table>
      )}
      <section class="panel" aria-labelledby="add-chat-bot">
        <h3 id="add-chat-bot">Add a bot</h3>
        <form onSubmit={submit}>
          <div class="row">
            <TextField
              label="Name"
              value={name}
              onInput={setName}
              required
              maxLength={100}
              hint="What calls with it, e.g. the community's Discord bot."
            />
          </div>
          <ErrorText error={add.error} />
          <button class="primary" type="submit" disabled={add.busy}>
            Add bot
          </button>
        </form>
      </section>
      <UnsignedCalls />
    </section>
  );
}
