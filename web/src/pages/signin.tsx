// Sign-in. A wrong password, a lockout and the address's rate limit are said in words, with the
// wait the service gave (Retry-After); the button stays off until the wait is over.
import { useEffect, useState } from 'preact/hooks';
import { ApiFailure, api, waitInWords } from '../api.ts';
import { ErrorText, PageTitle, TextField, useAction } from '../components.tsx';

export function SignInPage({ onDone }: { onDone: () => void }) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [waitUntilMs, setWaitUntilMs] = useState(0);
  const [nowMs, setNowMs] = useState(Date.now());
  const action = useAction();
  document.title = 'Sign in · Dashboard';

  useEffect(() => {
    if (waitUntilMs <= Date.now()) return;
    const timer = setInterval(() => setNowMs(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [waitUntilMs]);
  const waiting = waitUntilMs > nowMs;

  const submit = (e: Event) => {
    e.preventDefault();
    void action.run(async () => {
      try {
        await api('POST', '/api/auth/login', { username, password });
      } catch (err) {
        if (err instanceof ApiFailure && err.retryAfterSeconds !== undefined) {
          setWaitUntilMs(Date.now() + err.retryAfterSeconds * 1000);
          setNowMs(Date.now());
        }
        throw err;
      }
      onDone();
    });
  };

  return (
    <main id="main" class="narrow">
      <PageTitle>Sign in</PageTitle>
      <form onSubmit={submit}>
        <TextField label="Username" value={username} onInput={setUsername} required autoComplete="username" />
        <TextField label="Password" type="password" value={password} onInput={setPassword} required autoComplete="current-password" />
        <ErrorText error={action.error} />
        {waiting && <p class="muted">You can try again in {waitInWords((waitUntilMs - nowMs) / 1000)}.</p>}
        <button class="primary" type="submit" disabled={action.busy || waiting}>
          Sign in
        </button>
      </form>
    </main>
  );
}
