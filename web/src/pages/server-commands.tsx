// A server's command history (servers.read): what was asked of its agent, by whom, and how it went,
// newest first with "load older". Refreshed after each action on the page and every few seconds
// while a command is still pending or sent, so an admin watches it reach the game server.
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, query } from '../api.ts';
import { commandInWords, isOpen, requesterInWords, statusTone, statusWords } from '../commands.ts';
import { Badge, ErrorText, Loading, Table, TimeAgo, useAction } from '../components.tsx';
import type { CommandPage, ServerCommand } from '../types.ts';

const pageSize = 20;
const refreshMs = 5000;

/** A command as listed: a sent restart's shutdown on this browser's clock (from dueInSeconds, so clock skew does not matter). */
type Listed = ServerCommand & { dueLocalMs: number | null };
interface Shown {
  commands: Listed[];
  cursor: string | null;
}

const listed = (page: CommandPage): Listed[] => {
  const receivedMs = Date.now();
  return page.commands.map((c) => ({ ...c, dueLocalMs: c.dueInSeconds === null ? null : receivedMs + c.dueInSeconds * 1000 }));
};

/**
 * The newest page in place of the shown one's start: the older pages loaded stay when the new page
 * reaches into them; otherwise (many new commands) the list starts over from the new page.
 */
function merged(fresh: CommandPage, old: Shown | null): Shown {
  const commands = listed(fresh);
  const last = commands.at(-1);
  const at = old && last ? old.commands.findIndex((c) => c.id === last.id) : -1;
  if (!old || fresh.nextCursor === null || at === -1) return { commands, cursor: fresh.nextCursor };
  return { commands: [...commands, ...old.commands.slice(at + 1)], cursor: old.cursor };
}

export function CommandHistory({ serverId, round }: { serverId: string; round: number }) {
  const [shown, setShown] = useState<Shown | null>(null);
  const [error, setError] = useState<unknown>(undefined);
  const more = useAction();
  const page = (before: string | null) => api<CommandPage>('GET', `/api/servers/${serverId}/commands${query({ limit: pageSize, before })}`);
  // Only the newest refresh is shown: a slow answer from before an action must not hide its command.
  const latest = useRef(0);
  const refresh = async () => {
    const mine = ++latest.current;
    try {
      const fresh = await page(null);
      if (mine !== latest.current) return;
      setShown((old) => merged(fresh, old));
      setError(undefined);
    } catch (err) {
      if (mine === latest.current) setError(err);
    }
  };
  // `round` moves on after each action on the page.
  useEffect(() => void refresh(), [serverId, round]);
  const open = shown?.commands.some(isOpen) ?? false;
  // Each answer (or failure) sets the next refresh while a command is open; a failed one is tried again.
  useEffect(() => {
    if (!open) return;
    const timer = setTimeout(() => void refresh(), refreshMs);
    return () => clearTimeout(timer);
  }, [shown, error, open]);
  const older = () =>
    void more.run(async () => {
      const next = await page(shown?.cursor ?? null);
      setShown((old) => ({ commands: [...(old?.commands ?? []), ...listed(next)], cursor: next.nextCursor }));
    });

  return (
    <section aria-labelledby="commands-title">
      <h2 id="commands-title">Command history</h2>
      <p class="muted">Restarts, messages and kicks for this server's agent. A command no agent takes within 10 minutes expires.</p>
      <ErrorText error={error ?? more.error} />
      {!shown && !error && <Loading what="the commands" />}
      {shown && (
        <Table
          caption="Commands, newest first"
          head={['When', 'What', 'Who', 'State', 'Detail']}
          empty={shown.commands.length === 0 && 'No commands yet.'}
        >
          {shown.commands.map((c) => (
            <tr key={c.id}>
              <td>
                <TimeAgo iso={c.createdAt} />
              </td>
              <td>{commandInWords(c)}</td>
              <td>{requesterInWords(c.requestedBy)}</td>
              <td>
                <Badge tone={statusTone[c.status]}>{statusWords[c.status]}</Badge>
              </td>
              <td>
                <Detail command={c} />
              </td>
            </tr>
          ))}
        </Table>
      )}
      {shown?.cursor && (
        <button type="button" onClick={older} disabled={more.busy}>
          Load older commands
        </button>
      )}
    </section>
  );
}

function Detail({ command: c }: { command: Listed }) {
  if (c.status === 'pending')
    return (
      <span class="muted">
        Waiting for the agent; expires <TimeAgo iso={c.expiresAt} />
      </span>
    );
  if (c.status === 'sent' && c.dueLocalMs !== null) return <Countdown dueMs={c.dueLocalMs} />;
  if (c.status === 'sent') return <span class="muted">The agent is carrying it out</span>;
  return <>{c.detail ?? '–'}</>;
}

/** m:ss until a sent restart shuts the server down, ticking each second (not announced: the badge says the state). */
function Countdown({ dueMs }: { dueMs: number }) {
  const [nowMs, setNowMs] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNowMs(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const left = Math.round((dueMs - nowMs) / 1000);
  if (left <= 0) return <span>Shutting down now</span>;
  const clock = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}`;
  return (
    <span>
      Shuts down in <span class="mono">{clock}</span>
    </span>
  );
}
