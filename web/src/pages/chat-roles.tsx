// Chat bots and roles: the community's chat bots (chat-bots.tsx), and which role a chat user (a
// Discord id) acts with when one of those bots signs the call; a chat user without one, and every
// unsigned call, has the built-in chat-bot role (read servers and trust only).
import { useState } from 'preact/hooks';
import { api } from '../api.ts';
import { ConfirmButton, ErrorText, Loading, Notice, PageTitle, SelectField, Table, TextField, useAction, useLoad } from '../components.tsx';
import type { ChatUserRoles } from '../types.ts';
import { ChatBots } from './chat-bots.tsx';

const chatRoleOptions: [string, string][] = [
  ['moderator', 'Moderator: bans and queue from chat'],
  ['admin', 'Admin: also restarts'],
  ['owner', 'Owner'],
  ['viewer', 'Viewer: status and players'],
  ['chat-bot', 'Chat bot: status, players, trust lookups'],
];

export function ChatRolesPage() {
  return (
    <>
      <PageTitle>Chat bots and roles</PageTitle>
      <p>
        Your community's chat bots (a Discord bot, say) call this service for the people who chat with them: server status, online players,
        trust lookups, and for the chat users you give a role, bans, queue places and restarts.
      </p>
      <ChatBots />
      <ChatUserRoles />
    </>
  );
}

function ChatUserRoles() {
  const list = useLoad(() => api<ChatUserRoles>('GET', '/api/chat/user-roles'), []);
  const [f, setF] = useState({ chatUserId: '', role: 'moderator' });
  const [done, setDone] = useState('');
  const set = useAction();
  const row = useAction();
  const submit = (e: Event) => {
    e.preventDefault();
    void set.run(async () => {
      await api('PUT', `/api/chat/user-roles/${encodeURIComponent(f.chatUserId.trim())}`, { role: f.role });
      setDone(`Chat user ${f.chatUserId.trim()} now acts as ${f.role}.`);
      setF({ ...f, chatUserId: '' });
      list.reload();
    });
  };
  return (
    <section aria-labelledby="chat-user-roles">
      <h2 id="chat-user-roles">Chat users' roles</h2>
      <p>
        A call one of your bots signed for a chat user listed here runs with the role given; anyone else, and every unsigned call, gets the
        chat-bot role, which only reads server status, online players and trust scores.
      </p>
      {done && <Notice>{done}</Notice>}
      <ErrorText error={list.error ?? row.error} />
      {list.loading && !list.data && <Loading what="the mappings" />}
      {list.data && (
        <Table
          caption="Chat users and their roles"
          head={['Chat user id', 'Role', 'Actions']}
          empty={list.data.mappings.length === 0 && 'No chat user has a role of its own.'}
        >
          {list.data.mappings.map((m) => (
            <tr key={m.chatUserId}>
              <td class="mono">{m.chatUserId}</td>
              <td>{m.role}</td>
              <td>
                <ConfirmButton
                  label="Remove"
                  confirmLabel={`${m.chatUserId} falls back to the chat-bot role. Continue?`}
                  onConfirm={() =>
                    row.run(async () => {
                      await api('DELETE', `/api/chat/user-roles/${encodeURIComponent(m.chatUserId)}`);
                      setDone(`Chat user ${m.chatUserId} has the chat-bot role again.`);
                      list.reload();
                    })
                  }
                />
              </td>
            </tr>
          ))}
        </Table>
      )}
      <section class="panel" aria-labelledby="set-chat-role">
        <h3 id="set-chat-role">Give a chat user a role</h3>
        <form onSubmit={submit}>
          <div class="row">
            <TextField
              label="Chat user id"
              value={f.chatUserId}
              onInput={(chatUserId) => setF({ ...f, chatUserId })}
              required
              pattern="[0-9]{17,20}"
              hint="The Discord user id: 17 to 20 digits (Developer Mode, Copy User ID)."
            />
            <SelectField label="Role" value={f.role} onChange={(role) => setF({ ...f, role })} options={chatRoleOptions} />
          </div>
          <ErrorText error={set.error} />
          <button class="primary" type="submit" disabled={set.busy}>
            Save
          </button>
        </form>
      </section>
    </section>
  );
}
