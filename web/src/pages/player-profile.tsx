// A player as the account sees them, /players/<any id form>: the ids (each copyable), the names
// seen, per server totals, sessions and recent kills, then the account's records of the player
// (player-records.tsx). Moderators (bans.manage) toggle the watch flag here and reach the ban,
// queue and pool forms prefilled with the player; where the player is online, servers.control kicks.
import { useState } from 'preact/hooks';
import { api } from '../api.ts';
import { Badge, CopyButton, DateText, ErrorText, Loading, Notice, PageTitle, Table, useAction, useLoad } from '../components.tsx';
import { playTime } from '../format.ts';
import { PlayerLink, playerApi } from '../player-link.tsx';
import { Link } from '../router.tsx';
import { useSession } from '../session.tsx';
import type { Kill, PlayerIds, PlayerProfile, PlayerServer, PlayerWatch } from '../types.ts';
import { BansOfPlayer, NotesOfPlayer, QueueOfPlayer, TrustOfPlayer } from './player-records.tsx';
import { KickButton } from './server-players.tsx';

export function PlayerProfilePage({ params }: { params: Record<string, string> }) {
  const identifier = params.id ?? '';
  const profile = useLoad(() => api<PlayerProfile>('GET', playerApi(identifier)), [identifier]);
  const p = profile.data;
  if (!p)
    return (
      <>
        <PageTitle>
          Player <span class="mono">{identifier}</span>
        </PageTitle>
        <ErrorText error={profile.error} />
        {profile.loading && <Loading what="the player" />}
      </>
    );
  const platformId = p.ids.platformId;
  return (
    <>
      <PageTitle>
        {p.lastName ?? 'Player'} <span class="mono">{platformId}</span>
      </PageTitle>
      {!p.seenByAccount && <p class="muted">Your servers have not seen this player: what the network knows and your own records only.</p>}
      {p.seenByAccount && (
        <p class="muted">
          Seen on your servers from <DateText iso={p.firstSeenAt} /> to <DateText iso={p.lastSeenAt} />.
        </p>
      )}
      <Watch platformId={platformId} initial={p.watch} />
      <Actions platformId={platformId} name={p.lastName} />
      <Ids ids={p.ids} chatIds={p.chatIds} />
      <Names names={p.names} />
      {p.servers.map((s) => (
        <ServerPart key={s.serverId} server={s} platformId={platformId} />
      ))}
      <BansOfPlayer bans={p.bans} />
      <QueueOfPlayer queue={p.queue} />
      <TrustOfPlayer trust={p.trust} />
      <NotesOfPlayer platformId={platformId} initial={p.notes} />
    </>
  );
}

function Watch({ platformId, initial }: { platformId: string; initial: PlayerWatch }) {
  const { can } = useSession();
  const [state, setState] = useState(initial);
  const action = useAction();
  const toggle = () =>
    void action.run(async () => {
      setState(await api<PlayerWatch>(state.watched ? 'DELETE' : 'POST', `${playerApi(platformId)}/watch`));
    });
  return <WatchView state={state} manage={can('bans.manage')} busy={action.busy} error={action.error} onToggle={toggle} />;
}

function WatchView({
  state,
  manage,
  busy,
  error,
  onToggle,
}: {
  state: PlayerWatch;
  manage: boolean;
  busy: boolean;
  error: unknown;
  onToggle: () => void;
}) {
  return (
    <div class="row" role="group" aria-label="Watch">
      <p role="status">
        {state.watched ? (
          <>
            <Badge tone="warn">Watched</Badge> since <DateText iso={state.watchedAt} />
            {state.watchedBy?.name ? ` by ${state.watchedBy.name}` : ''}: marked in the online lists.
          </>
        ) : (
          'Not watched.'
        )}
      </p>
      {manage && (
        <button type="button" aria-pressed={state.watched} disabled={busy} onClick={onToggle}>
          Watch this player
        </button>
      )}
      <ErrorText error={error} />
    </div>
  );
}

function Actions({ platformId, name }: { platformId: string; name: string | null }) {
  const { can } = useSession();
  const prefill = `?player=${encodeURIComponent(platformId)}${name ? `&name=${encodeURIComponent(name)}` : ''}`;
  const links = [
    can('bans.manage') && <Link href={`/bans${prefill}#create-ban`}>Ban this player</Link>,
    can('queue.manage') && <Link href={`/queue${prefill}#add-queue`}>Add to the priority queue</Link>,
    can('trust.submit') && <Link href={`/bans${prefill}`}>Submit a ban of this player to the trust pool</Link>,
  ].filter(Boolean);
  if (links.length === 0) return null;
  return (
    <nav aria-label="Act on this player">
      <ul class="actions">
        {links.map((l, i) => (
          <li key={i}>{l}</li>
        ))}
      </ul>
    </nav>
  );
}

const idRows = (ids: PlayerIds, chatIds: string[]): [string, string][] =>
  [
    ['Platform id (kept under)', ids.platformId],
    ['Steam64', ids.steam64],
    ['Steam (legacy form)', ids.steamLegacy],
    ['DayZ ID', ids.dayzId],
    ['BattlEye GUID', ids.battleyeGuid],
    ['Network player UUID', ids.serviceId],
    ...ids.consoleIds.map((c): [string, string] => ['Console id', c]),
    ...chatIds.map((c): [string, string] => ['Chat (Discord) id', c]),
  ].filter((r): r is [string, string] => typeof r[1] === 'string');

function Ids({ ids, chatIds }: { ids: PlayerIds; chatIds: string[] }) {
  return (
    <section aria-labelledby="ids-title">
      <h2 id="ids-title">Ids</h2>
      <dl class="ids">
        {idRows(ids, chatIds).map(([label, value]) => (
          <div key={`${label}-${value}`}>
            <dt>{label}</dt>
            <dd>
              <span class="mono">{value}</span> <CopyButton text={value} label={`Copy the ${label}`} />
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

function Names({ names }: { names: PlayerProfile['names'] }) {
  return (
    <section aria-labelledby="names-title">
      <h2 id="names-title">Names seen</h2>
      <Table
        caption="Names on your servers, most recently seen first"
        head={['Name', 'First seen', 'Last seen']}
        empty={names.length === 0 && 'No name seen on your servers.'}
      >
        {names.map((n) => (
          <tr key={n.name}>
            <td>{n.name}</td>
            <td>
              <DateText iso={n.firstSeenAt} />
            </td>
            <td>
              <DateText iso={n.lastSeenAt} />
            </td>
          </tr>
        ))}
      </Table>
    </section>
  );
}

function ServerPart({ server: s, platformId }: { server: PlayerServer; platformId: string }) {
  const id = `server-${s.serverId}`;
  const { can } = useSession();
  const [queued, setQueued] = useState('');
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>
        On <Link href={`/servers/${s.serverId}`}>{s.serverName}</Link>
        {s.online && (
          <>
            {' '}
            <Badge tone="ok">online</Badge>
          </>
        )}
      </h2>
      <p class="muted">
        {s.name ? `Known there as ${s.name}. ` : ''}Last seen <DateText iso={s.lastSeenAt} />.
      </p>
      {s.online && can('servers.control') && (
        <KickButton serverId={s.serverId} player={{ platformId, name: s.name ?? platformId }} onQueued={setQueued} />
      )}
      {queued && <Notice>{queued}</Notice>}
      <dl class="facts">
        {(
          [
            ['Kills', String(s.totals.kills)],
            ['Deaths', String(s.totals.deaths)],
            ['K/D', s.totals.kd.toFixed(2)],
            ['Headshots', String(s.totals.headshots)],
            ['Play time', playTime(Math.round(s.totals.playSeconds / 60))],
          ] as const
        ).map(([term, value]) => (
          <div key={term}>
            <dt>{term}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <Table
        caption={`Sessions on ${s.serverName}, newest first`}
        head={['Started', 'Ended']}
        empty={s.sessions.length === 0 && 'No session recorded.'}
      >
        {s.sessions.map((x) => (
          <tr key={x.startedAt}>
            <td>
              <DateText iso={x.startedAt} />
            </td>
            <td>{x.ongoing ? 'Still playing' : <DateText iso={x.endedAt} />}</td>
          </tr>
        ))}
      </Table>
      <KillTable caption={`Recent kills by the player on ${s.serverName}`} kills={s.recentKills} other="victim" />
      <KillTable caption={`Recent deaths of the player on ${s.serverName}`} kills={s.recentDeaths} other="killer" />
    </section>
  );
}

function KillTable({ caption, kills, other }: { caption: string; kills: Kill[]; other: 'killer' | 'victim' }) {
  return (
    <Table
      caption={caption}
      head={['When', other === 'victim' ? 'Victim' : 'Killer', 'Weapon', ['Distance', 'num']]}
      empty={kills.length === 0 && 'None.'}
    >
      {kills.map((k) => (
        <tr key={k.ts}>
          <td>
            <DateText iso={k.ts} />
          </td>
          <td>
            {other === 'victim' ? (
              <PlayerLink platformId={k.victimPlatformId} name={k.victimName} />
            ) : (
              <PlayerLink platformId={k.killerPlatformId} name={k.killerName} />
            )}
            {k.isHeadshot ? ' (headshot)' : ''}
          </td>
          <td>{k.weapon}</td>
          <td class="num">{Math.round(k.distance)} m</td>
        </tr>
      ))}
    </Table>
  );
}
