// The agent's command line for one server, shown once with its ingest token: the profile folder
// fills --logs and --files, the RCon port and password file fill the RCon flags, and the panel says
// how to turn BattlEye RCon on (without it kicks and messages fail).
import { useState } from 'preact/hooks';
import { CopyButton, TextField } from '../components.tsx';

/** A path as one shell word: quoted when it holds a space. */
const shellWord = (path: string) => (/\s/.test(path) ? `'${path.replaceAll("'", "'\\''")}'` : path);

/** Where the password file goes unless the admin names another: beside the BattlEye config. */
const defaultPasswordFile = (profile: string) => `${profile.replace(/\/+$/, '')}/BattlEye/rcon-password.txt`;

export function AgentCommand({ serverId, token }: { serverId: string; token: string }) {
  const [profile, setProfile] = useState('/home/dayz/serverprofile');
  const [rconPort, setRconPort] = useState('2305');
  // null: the file follows the profile folder until the admin types a path of their own.
  const [passwordFile, setPasswordFile] = useState<string | null>(null);
  const passwordPath = passwordFile ?? defaultPasswordFile(profile);
  const folder = shellWord(profile);
  const command =
    `npm run agent -- --url ${location.origin} --server ${serverId} --token ${token} \\\n  --logs ${folder} --files ${folder} \\\n` +
    `  --rcon-port ${rconPort.trim()} --rcon-password-file ${shellWord(passwordPath)}`;
  return (
    <div>
      <h4>Connect the game server</h4>
      <p>
        Run the agent beside the DayZ server, in a copy of this project. It reads the admin logs (<code>*.ADM</code>) of the server's
        profile folder, keeps <code>ban.txt</code> and <code>priority.txt</code> there, and carries out restarts, messages and kicks through
        BattlEye RCon.
      </p>
      <div class="grid2">
        <TextField
          label="Server profile folder"
          value={profile}
          onInput={setProfile}
          hint="The -profiles= folder of the DayZ server's command line."
        />
        <TextField
          label="RCon port"
          type="number"
          value={rconPort}
          onInput={setRconPort}
          min={1}
          max={65535}
          hint="RConPort in BEServer_x64.cfg: usually the game port + 3 (2302 + 3 = 2305)."
        />
      </div>
      <TextField
        label="RCon password file"
        value={passwordPath}
        onInput={setPasswordFile}
        hint="A file holding only the RCon password, readable only by the agent's user (or set AGENT_RCON_PASSWORD instead)."
      />
      <code class="block" data-testid="agent-command">
        {command}
      </code>
      <CopyButton text={command} label="Copy the command" />
      <RconSetup port={rconPort.trim()} />
    </div>
  );
}

function RconSetup({ port }: { port: string }) {
  return (
    <>
      <h4>Turn on BattlEye RCon</h4>
      <p>
        In the server profile's <code>BattlEye/BEServer_x64.cfg</code> (while the server runs, BattlEye has renamed it{' '}
        <code>BEServer_x64_active_*.cfg</code>: edit that one), set a password, the port and <code>RestrictRCon 0</code>, which kicks and{' '}
        <code>#shutdown</code> need; then restart the server.
      </p>
      <code class="block">{`RConPassword <a long random password>\nRConPort ${port}\nRestrictRCon 0`}</code>
      <p>
        Put the same password alone in the password file above (<code>chmod 600</code>, owned by the agent's user). The agent reaches RCon
        on 127.0.0.1 unless <code>--rcon-host</code> names another address.
      </p>
      <p>
        Without RCon the agent still feeds the logs and keeps the files, but kicks and messages fail, and restarts need the agent's{' '}
        <code>--restart-command</code>.
      </p>
    </>
  );
}
