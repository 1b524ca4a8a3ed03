// First run: the network operator's community and its owner (POST /api/setup/admin), then sign-in.
import { useState } from 'preact/hooks';
import { ApiFailure, api } from '../api.ts';
import { ErrorText, PageTitle, Problem, TextField, useAction } from '../components.tsx';

export function SetupPage({ onDone }: { onDone: () => void }) {
  const [accountName, setAccountName] = useState('');
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [again, setAgain] = useState('');
  const action = useAction();
  document.title = 'First-run setup · Dashboard';

  const submit = (e: Event) => {
    e.preventDefault();
    void action.run(async () => {
      if (password !== again) throw new Problem('The two passwords differ: type the same password twice.');
      try {
        await api('POST', '/api/setup/admin', { accountName, username, password });
      } catch (err) {
        // Someone finished the setup meanwhile (another tab, the CLI): sign in instead.
        if (err instanceof ApiFailure && err.code === 'CONFLICT') return onDone();
        throw err;
      }
      await api('POST', '/api/auth/login', { username, password });
      onDone();
    });
  };

  return (
    <main id="main" class="narrow">
      <PageTitle>Set up the service</PageTitle>
      <p>
        No one has signed in yet. Create the network operator's community and its first owner: this account runs the service and may add
        other communities.
      </p>
      <form onSubmit={submit}>
        <TextField label="Community name" value={accountName} onInput={setAccountName} required maxLength={100} />
        <TextField
          label="Username"
          value={username}
          onInput={setUsername}
          required
          minLength={3}
          maxLength={64}
          pattern="[A-Za-z0-9._\-]+"
          autoComplete="username"
          hint="3 to 64 letters, digits, dots, dashes or underscores."
        />
        <TextField
          label="Password"
          type="password"
          value={password}
          onInput={setPassword}
          required
          minLength={10}
          maxLength={200}
          autoComplete="new-password"
          hint="At least 10 characters; a few words make a good one."
        />
        <TextField
          label="Password again"
          type="password"
          value={again}
          onInput={setAgain}
          required
          minLength={10}
          maxLength={200}
          autoComplete="new-password"
        />
        <ErrorText error={action.error} />
        <button class="primary" type="submit" disabled={action.busy}>
          Create and sign in
        </button>
      </form>
    </main>
  );
}
