// The server page's actions for users with servers.control: restart (after a delay, with a message
// shown in each warning) and a message to every player. Each goes to the server's agent; the page
// says what was queued, and the command history follows it from there.
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, waitInWords } from '../api.ts';
import { queuedInWords } from '../commands.ts';
import { ErrorText, Notice, SelectField, TextField, useAction } from '../components.tsx';
import type { ServerCommand } from '../types.ts';

export function ServerActions({ serverId, serverName, onQueued }: { serverId: string; serverName: string; onQueued: () => void }) {
  return (
    <section aria-labelledby="actions-title">
      <h2 id="actions-title">Server actions</h2>
      <p class="muted">The server's agent carries these out through BattlEye RCon; the command history below shows how each went.</p>
      <div class="grid2">
        <RestartForm serverId={serverId} serverName={serverName} onQueued={onQueued} />
        <MessageForm serverId={serverId} onQueued={onQueued} />
      </div>
    </section>
  );
}

const delays: [string, string][] = [
  ['0', 'Now'],
  ['60', 'In 1 minute'],
  ['300', 'In 5 minutes'],
  ['600', 'In 10 minutes'],
  ['900', 'In 15 minutes'],
  ['1800', 'In 30 minutes'],
  ['other', 'After a number of seconds'],
];

function RestartForm({ serverId, serverName, onQueued }: { serverId: string; serverName: string; onQueued: () => void }) {
  const [delay, setDelay] = useState('300');
  const [seconds, setSeconds] = useState('120');
  const [message, setMessage] = useState('');
  // The form checks what was typed first; then one more step, as restarting disconnects everyone.
  const [asking, setAsking] = useState(false);
  const [queued, setQueued] = useState('');
  const action = useAction();
  const yes = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (asking) yes.current?.focus();
  }, [asking]);
  const delaySeconds = Number(delay === 'other' ? seconds : delay);
  const when = delaySeconds === 0 ? 'now' : `in ${waitInWords(delaySeconds)}`;

  const ask = (e: Event) => {
    e.preventDefault();
    setQueued('');
    setAsking(true);
  };
  const restart = () =>
    void action.run(async () => {
      try {
        const command = await api<ServerCommand>('POST', `/api/servers/${serverId}/restart`, {
          delaySeconds,
          ...(message.trim() ? { message: message.trim() } : {}),
        });
        setQueued(queuedInWords(command));
        setMessage('');
        onQueued();
      } finally {
        setAsking(false);
      }
    });
  return (
    <form class="panel" onSubmit={ask} aria-labelledby="restart-title">
      <h3 id="restart-title">Restart</h3>
      <SelectField
        label="Shut down"
        value={delay}
        onChange={(v) => {
          setDelay(v);
          setAsking(false);
        }}
        options={delays}
        hint="Counted from when the agent takes the command. Players are warned 5 min, 2 min, 1 min, 30 s and 10 s before (those within the delay); the server is locked for its last minute."
      />
      {delay === 'other' && (
        <TextField
          label="Seconds until the shutdown"
          type="number"
          value={seconds}
          onInput={(v) => {
            setSeconds(v);
            setAsking(false);
          }}
          required
          min={0}
          max={3600}
        />
      )}
      <TextField label="Message with each warning (optional)" value={message} onInput={setMessage} maxLength={200} />
      <ErrorText error={action.error} />
      {queued && <Notice>{queued}</Notice>}
      {asking ? (
        <div class="actions" role="group" aria-label="Confirm the restart">
          <span>
            Restart {serverName} {when}?
          </span>
          <button ref={yes} type="button" class="danger" disabled={action.busy} onClick={restart}>
            Yes, restart
          </button>
          <button type="button" onClick={() => setAsking(false)}>
            No
          </button>
        </div>
      ) : (
        <button type="submit" class="danger">
          Restart the server
        </button>
      )}
    </form>
  );
}

function MessageForm({ serverId, onQueued }: { serverId: string; onQueued: () => void }) {
  const [text, setText] = useState('');
  const [queued, setQueued] = useState('');
  const action = useAction();
  const send = (e: Event) => {
    e.preventDefault();
    setQueued('');
    void action.run(async () => {
      const command = await api<ServerCommand>('POST', `/api/servers/${serverId}/messages`, { text: text.trim() });
      setQueued(queuedInWords(command));
      setText('');
      onQueued();
    });
  };
  return (
    <form class="panel" onSubmit={send} aria-labelledby="message-title">
      <h3 id="message-title">Message to all players</h3>
      <TextField
        label="Message"
        value={text}
        onInput={setText}
        required
        maxLength={200}
        pattern=".*\S.*"
        hint="Shown in the game's chat to everyone on the server."
      />
      <ErrorText error={action.error} />
      {queued && <Notice>{queued}</Notice>}
      <button type="submit" class="primary" disabled={action.busy}>
        Send the message
      </button>
    </form>
  );
}
