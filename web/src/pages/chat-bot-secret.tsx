// A chat bot's secret, shown once after the bot is made or its secret rotated: the secret, the bot's
// id (what X-Chat-Bot carries), how the bot signs each call, and the reference client's command
// line for this bot and this service.
import { CopyButton, SecretBox } from '../components.tsx';
import type { ChatBot } from '../types.ts';

export interface ShownSecret {
  title: string;
  bot: ChatBot;
  secret: string;
}

export function BotSecret({ shown, onDismiss }: { shown: ShownSecret; onDismiss: () => void }) {
  const { bot, secret } = shown;
  const headers = `X-Chat-Bot: ${bot.id}\nX-Chat-Timestamp: <unix seconds>\nX-Chat-Signature: sha256=<hex HMAC-SHA256(secret, "timestamp.action.chatUserId")>`;
  const command = `CHAT_BOT_SECRET=${secret} npm run cli -- chat server.status \\\n  --user <discord user id> --server <server id> --bot ${bot.id} --url ${location.origin}`;
  return (
    <SecretBox
      title={shown.title}
      value={secret}
      onDismiss={onDismiss}
      kept="The service keeps no copy of it, so it cannot be shown again: if it is lost, rotate the secret."
    >
      <h4>Bot id</h4>
      <p>
        The bot names itself with it in <code>X-Chat-Bot</code>. It is no secret, and stays in the list below.
      </p>
      <code class="block" data-testid="bot-id">
        {bot.id}
      </code>
      <CopyButton text={bot.id} label="Copy the bot id" />
      <h4>How your bot signs</h4>
      <p>
        Each call is a <code>POST {location.origin}/api/chat/action</code> with a JSON body (<code>action</code>, <code>chatUserId</code>,
        and <code>serverId</code> or <code>params</code> as the action needs) and these headers:
      </p>
      <code class="block">{headers}</code>
      <p>
        The timestamp may be at most 5 minutes off the service's clock. A signature is good once: two identical calls in the same second
        carry the same one and the second is refused as a replay, so wait for the next second before repeating a call.
      </p>
      <h4>Try it</h4>
      <p>With the reference client, in a copy of this project:</p>
      <code class="block" data-testid="bot-command">
        {command}
      </code>
      <CopyButton text={command} label="Copy the command" />
    </SecretBox>
  );
}
