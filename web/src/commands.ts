// Agent commands in words, as the server page shows them: what was asked, by whom, in which state,
// and what was queued. Pure, so every section says it the same way.
import { waitInWords } from './api.ts';
import type { CommandStatus, ServerCommand } from './types.ts';

/** "now", "45 s", "5 min", "1 min 30 s", "1 h 30 min": short enough for a table cell. */
export function shortDelay(seconds: number): string {
  if (seconds <= 0) return 'now';
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  const parts = [h && `${h} h`, m && `${m} min`, s && `${s} s`].filter(Boolean);
  return parts.join(' ');
}

/** "Restart in 5 min — 'Daily restart'", "Message 'Hello'", "Kick 76561198000000042 — AFK". */
export function commandInWords(c: ServerCommand): string {
  switch (c.kind) {
    case 'restart': {
      const when = c.params.delaySeconds === 0 ? 'Restart now' : `Restart in ${shortDelay(c.params.delaySeconds)}`;
      return c.params.message ? `${when} — '${c.params.message}'` : when;
    }
    case 'message':
      return `Message '${c.params.text}'`;
    case 'kick':
      return c.params.reason ? `Kick ${c.params.platformId} — ${c.params.reason}` : `Kick ${c.params.platformId}`;
  }
}

/** A user by name; the bot's users marked as such; the service's own (a schedule, a store purchase) as the system. */
export function requesterInWords(by: ServerCommand['requestedBy']): string {
  if (by.type === 'system') return by.name ? `System (${by.name})` : 'System';
  const name = by.name ?? 'a deleted user';
  return by.type === 'chat' ? `${name} (chat)` : name;
}

export const statusWords: Record<CommandStatus, string> = {
  pending: 'Pending',
  sent: 'Sent',
  done: 'Done',
  failed: 'Failed',
  expired: 'Expired',
};
/** Waiting is neutral, in the agent's hands needs watching, and a command that did not happen is bad news. */
export const statusTone: Record<CommandStatus, 'ok' | 'off' | 'warn' | 'bad'> = {
  pending: 'off',
  sent: 'warn',
  done: 'ok',
  failed: 'bad',
  expired: 'bad',
};

/** A command not finished yet: the history keeps refreshing while one is shown. */
export const isOpen = (c: ServerCommand) => c.status === 'pending' || c.status === 'sent';

/** What the page confirms once the service took a command: the agent acts when it takes it, not now. */
export function queuedInWords(c: ServerCommand, playerName?: string): string {
  switch (c.kind) {
    case 'restart':
      return c.params.delaySeconds === 0
        ? 'Queued: the agent restarts the server as soon as it takes the command.'
        : `Queued: the agent restarts the server ${waitInWords(c.params.delaySeconds)} after it takes the command.`;
    case 'message':
      return 'Queued: the agent sends the message to every player when it takes the command.';
    case 'kick':
      return `Queued: the agent kicks ${playerName ?? c.params.platformId} when it takes the command.`;
  }
}
