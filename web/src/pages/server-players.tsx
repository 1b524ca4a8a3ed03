// The server's online players; for users with servers.control each row has a Kick button that
// asks for an optional reason (shown to the player) before the kick goes to the server's agent.
import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../api.ts';
import { queuedInWords } from '../commands.ts';
import { ErrorText, Notice, Table, TextField, useAction, useLoad } from '../components.tsx';
import { PlayerLink } from '../player-link.tsx';
import type { OnlinePlayer, ServerCommand, ServerOnlinePlayers } from '../types.ts';

export function OnlinePlayers({ serverId, control, onQueued }: { serverId: string; control: boolean; onQueued: () => void }) {
  const online = useLoad(() => api<ServerOnlinePlayers>('GET', `/api/servers/${serverId}/players`), [serverId]);
  const [queued, setQueued] = useState('');
  const kicked = (words: string) => {
    setQueued(words);
    onQueued();
  };
  return (
    <section aria-labelledby="online-title">
      <h2 id="online-title">Online players{online.data ? ` (${online.data.count})` : ''}</h2>
      <ErrorText error={online.error} />
      {queued && <Notice>{queued}</Notice>}
      {online.data && (
        <Table
          caption="Players active in the last 90 seconds"
          head={['Name', 'Player id', ...(control ? ['Actions'] : [])]}
          empty={online.data.count === 0 && 'Nobody is online.'}
        >
          {online.data.players.map((p) => (
            <tr key={p.platformId}>
              <td>
                <PlayerLink platformId={p.platformId} name={p.name} watched={p.watched} />
              </td>
              <td>
                <PlayerLink platformId={p.platformId} />
              </td>
              {control && (
                <td>
                  <KickButton serverId={serverId} player={p} onQueued={kicked} />
                </td>
              )}
            </tr>
          ))}
        </Table>
      )}
    </section>
  );
}

/** Kick, then a reason asked for before the command goes to the server's agent (the profile uses it too). */
export function KickButton({
  serverId,
  player,
  onQueued,
}: {
  serverId: string;
  player: Pick<OnlinePlayer, 'platformId' | 'name'>;
  onQueued: (words: string) => void;
}) {
  const [asking, setAsking] = useState(false);
  const [reason, setReason] = useState('');
  const action = useAction();
  const form = useRef<HTMLFormElement>(null);
  // The reason field takes the focus when the step opens, so a keyboard user types it at once.
  useEffect(() => {
    if (asking) form.current?.querySelector('input')?.focus();
  }, [asking]);
  const close = () => {
    setAsking(false);
    setReason('');
    action.clear();
  };
  const kick = (e: Event) => {
    e.preventDefault();
    void action.run(async () => {
      const command = await api<ServerCommand>('POST', `/api/servers/${serverId}/kick`, {
        platformId: player.platformId,
        ...(reason.trim() ? { reason: reason.trim() } : {}),
      });
      close();
      onQueued(queuedInWords(command, player.name));
    });
  };
  if (!asking)
    return (
      <button type="button" onClick={() => setAsking(true)}>
        Kick<span class="visually-hidden"> {player.name}</span>
      </button>
    );
  return (
    <form ref={form} onSubmit={kick} aria-label={`Kick ${player.name}`}>
      <TextField label="Reason (optional)" value={reason} onInput={setReason} maxLength={64} hint="Shown to the player." />
      <ErrorText error={action.error} />
      <div class="actions">
        <button type="submit" class="danger" disabled={action.busy}>
          Kick {player.name}
        </button>
        <button type="button" onClick={close}>
          Cancel
        </button>
      </div>
    </form>
  );
}
