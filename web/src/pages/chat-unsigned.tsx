// The community's "refuse unsigned calls" switch: a chat call none of its bots signed otherwise acts
// with the built-in chat-bot role only (it cannot prove which chat user it is for).
import { useId, useState } from 'preact/hooks';
import { api } from '../api.ts';
import { ErrorText, Loading, Notice, useAction, useLoad } from '../components.tsx';

export function UnsignedCalls() {
  const settings = useLoad(() => api<{ requireSignature: boolean }>('GET', '/api/chat/settings'), []);
  // The last choice (shown while it is saved, and put back if saving fails); until one, what the page loaded.
  const [chosen, setChosen] = useState<boolean | null>(null);
  const [done, setDone] = useState('');
  const save = useAction();
  const hint = useId();
  const on = chosen ?? settings.data?.requireSignature;

  const change = async (requireSignature: boolean) => {
    const before = chosen;
    setChosen(requireSignature);
    setDone('');
    const saved = await save.run(async () => {
      const res = await api<{ requireSignature: boolean }>('PUT', '/api/chat/settings', { requireSignature });
      setDone(
        res.requireSignature
          ? "Unsigned calls are refused: only your bots' signed calls run."
          : 'Unsigned calls run again, with the chat-bot role only.',
      );
    });
    if (!saved) setChosen(before);
  };

  return (
    <section class="panel" aria-labelledby="unsigned-calls">
      <h3 id="unsigned-calls">Unsigned calls</h3>
      <ErrorText error={settings.error ?? save.error} />
      {settings.loading && on === undefined && <Loading what="the setting" />}
      {on !== undefined && (
        <div class="field">
          <label class="choice">
            <input
              type="checkbox"
              checked={on}
              disabled={save.busy}
              aria-describedby={hint}
              onChange={(e) => void change(e.currentTarget.checked)}
            />{' '}
            Refuse unsigned calls
          </label>
          <span class="hint" id={hint}>
            A call none of your bots signed acts only with the built-in chat-bot role: server status, online players and trust lookups.
            Refusing them means only your bots' signed calls run.
          </span>
        </div>
      )}
      {done && <Notice>{done}</Notice>}
    </section>
  );
}
