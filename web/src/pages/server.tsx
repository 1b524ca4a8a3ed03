// One server: its state, the chart of players and fps over the last 24 hours, the actions its agent
// carries out (servers.control), the online players (with Kick), its ban list as synced, the command
// history and the restart schedule, the leaderboard (sorting, paging) and the killfeed ("load older").
import { useState } from 'preact/hooks';
import { PlayerLink } from '../player-link.tsx';
import { api, query } from '../api.ts';
import { MetricsChart } from '../chart.tsx';
import { Badge, DateText, ErrorText, Loading, PageTitle, SelectField, Table, TimeAgo, useAction, useLoad } from '../components.tsx';
import { formatCount, formatFps, pageCaption, playTime } from '../format.ts';
import { useSession } from '../session.tsx';
import type { BanList, Kill, KillfeedPage, LeaderboardPage, ManagedServer, MetricsPage, MetricsSample } from '../types.ts';
import { ServerActions } from './server-actions.tsx';
import { CommandHistory } from './server-commands.tsx';
import { OnlinePlayers } from './server-players.tsx';
import { RestartScheduleSection } from './server-schedule.tsx';

const dayMs = 24 * 3600_000;

export function ServerPage({ params }: { params: Record<string, string> }) {
  const id = params.id!;
  const server = useLoad(() => api<ManagedServer>('GET', `/api/servers/${encodeURIComponent(id)}`), [id]);
  const control = useSession().can('servers.control');
  // Moves on after each command given on the page, so the history shows it at once.
  const [commandsRound, setCommandsRound] = useState(0);
  const queued = () => setCommandsRound((r) => r + 1);
  if (server.error)
    return (
      <>
        <PageTitle>Server</PageTitle>
        <ErrorText error={server.error} />
      </>
    );
  if (!server.data)
    return (
      <>
        <PageTitle>Server</PageTitle>
        <Loading what="the server" />
      </>
    );
  const s = server.data;
  return (
    <>
      <PageTitle>{s.name}</PageTitle>
      <dl class="facts">
        <div>
          <dt>State</dt>
          <dd>{s.online ? <Badge tone="ok">Online</Badge> : <Badge tone="off">Offline</Badge>}</dd>
        </div>
        <div>
          <dt>Map</dt>
          <dd>{s.map ?? '–'}</dd>
        </div>
        <div>
          <dt>Players</dt>
          <dd>{s.online ? formatCount(s.players) : '–'}</dd>
        </div>
        <div>
          <dt>FPS</dt>
          <dd>{s.online ? formatFps(s.fps) : '–'}</dd>
        </div>
        <div>
          <dt>Last seen</dt>
          <dd>
            <TimeAgo iso={s.lastSeenAt} />
          </dd>
        </div>
      </dl>
      <Chart serverId={s.id} />
      {control && <ServerActions serverId={s.id} serverName={s.name} onQueued={queued} />}
      <div class="grid2">
        <OnlinePlayers serverId={s.id} control={control} onQueued={queued} />
        <BanList serverId={s.id} />
      </div>
      <CommandHistory serverId={s.id} round={commandsRound} />
      <RestartScheduleSection serverId={s.id} control={control} />
      <Leaderboard serverId={s.id} />
      <Killfeed serverId={s.id} />
    </>
  );
}

/** Every sample of the last 24 hours, read page by page (nextCursor as from). */
async function lastDay(serverId: string, toMs: number): Promise<MetricsSample[]> {
  const to = new Date(toMs).toISOString();
  const samples: MetricsSample[] = [];
  let from: string | null = new Date(toMs - dayMs).toISOString();
  while (from) {
    const page: MetricsPage = await api<MetricsPage>('GET', `/api/servers/${serverId}/metrics${query({ from, to, limit: 2000 })}`);
    samples.push(...page.samples);
    from = page.nextCursor;
  }
  return samples;
}

function Chart({ serverId }: { serverId: string }) {
  const [toMs] = useState(() => Date.now());
  const data = useLoad(() => lastDay(serverId, toMs), [serverId]);
  return (
    <section aria-labelledby="chart-title">
      <h2 id="chart-title">Players and FPS, last 24 hours</h2>
      <ErrorText error={data.error} />
      {data.data ? <MetricsChart samples={data.data} fromMs={toMs - dayMs} toMs={toMs} /> : !data.error && <Loading what="the chart" />}
    </section>
  );
}

function BanList({ serverId }: { serverId: string }) {
  const bans = useLoad(() => api<BanList>('GET', `/api/servers/${serverId}/bans${query({ limit: 100 })}`), [serverId]);
  return (
    <section aria-labelledby="server-bans-title">
      <h2 id="server-bans-title">Ban list of this server</h2>
      <p class="muted">The bans last written to this server's ban file.</p>
      <ErrorText error={bans.error} />
      {bans.data && (
        <Table
          caption="Bans synced to this server"
          head={['Player', 'Reason', 'Until']}
          empty={bans.data.bans.length === 0 && 'No bans synced to this server.'}
        >
          {bans.data.bans.map((b) => (
            <tr key={b.platformId}>
              <td>
                <PlayerLink platformId={b.platformId} name={b.playerName ?? 'unnamed'} showId />
              </td>
              <td>{b.reason ?? '–'}</td>
              <td>{b.permanent ? 'Permanent' : <DateText iso={b.expiresAt} />}</td>
            </tr>
          ))}
        </Table>
      )}
    </section>
  );
}

const pageSize = 25;

function Leaderboard({ serverId }: { serverId: string }) {
  const [sort, setSort] = useState('points');
  const [offset, setOffset] = useState(0);
  const board = useLoad(
    () => api<LeaderboardPage>('GET', `/api/servers/${serverId}/leaderboard${query({ sort, offset, limit: pageSize })}`),
    [serverId, sort, offset],
  );
  const total = board.data?.total ?? 0;
  return (
    <section aria-labelledby="board-title">
      <h2 id="board-title">Leaderboard</h2>
      <div class="row">
        <SelectField
          label="Sort by"
          value={sort}
          onChange={(v) => {
            setSort(v);
            setOffset(0);
          }}
          options={[
            ['points', 'Points'],
            ['kd', 'Kills per death'],
            ['kills', 'Kills'],
          ]}
        />
      </div>
      <ErrorText error={board.error} />
      {board.data && (
        <>
          <Table
            caption={pageCaption(
              `Ranking by ${sort === 'kd' ? 'kills per death' : sort}, players`,
              offset,
              board.data.players.length,
              total,
            )}
            head={[
              ['Rank', 'num'],
              'Player',
              ['Points', 'num'],
              ['Kills', 'num'],
              ['Deaths', 'num'],
              ['K/D', 'num'],
              ['Headshots', 'num'],
              'Play time',
            ]}
            empty={board.data.players.length === 0 && 'No ranked players yet.'}
          >
            {board.data.players.map((p) => (
              <tr key={p.platformId}>
                <td class="num">{p.rank}</td>
                <td>
                  <PlayerLink platformId={p.platformId} name={p.name} />
                </td>
                <td class="num">{p.points}</td>
                <td class="num">{p.kills}</td>
                <td class="num">{p.deaths}</td>
                <td class="num">{p.kd.toFixed(2)}</td>
                <td class="num">{p.headshots}</td>
                <td>{playTime(p.playMinutes)}</td>
              </tr>
            ))}
          </Table>
          <div class="pager">
            <button type="button" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - pageSize))}>
              Previous page
            </button>
            <button type="button" disabled={offset + pageSize >= total} onClick={() => setOffset(offset + pageSize)}>
              Next page
            </button>
          </div>
        </>
      )}
    </section>
  );
}

function Killfeed({ serverId }: { serverId: string }) {
  const [kills, setKills] = useState<Kill[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const more = useAction();
  const first = useLoad(async () => {
    const page = await api<KillfeedPage>('GET', `/api/servers/${serverId}/kills${query({ limit: 20 })}`);
    setKills(page.kills);
    setCursor(page.nextCursor);
    return page;
  }, [serverId]);
  const older = () =>
    void more.run(async () => {
      const page = await api<KillfeedPage>('GET', `/api/servers/${serverId}/kills${query({ limit: 20, before: cursor })}`);
      setKills([...(kills ?? []), ...page.kills]);
      setCursor(page.nextCursor);
    });
  return (
    <section aria-labelledby="feed-title">
      <h2 id="feed-title">Killfeed</h2>
      <ErrorText error={first.error ?? more.error} />
      {kills && (
        <Table
          caption="Kills, newest first"
          head={['When', 'Killer', 'Victim', 'Weapon', ['Distance', 'num']]}
          empty={kills.length === 0 && 'No kills yet.'}
        >
          {kills.map((k) => (
            <tr key={k.ts}>
              <td>
                <TimeAgo iso={k.ts} />
              </td>
              <td>
                <PlayerLink platformId={k.killerPlatformId} name={k.killerName} />
              </td>
              <td>
                <PlayerLink platformId={k.victimPlatformId} name={k.victimName} />
                {k.isHeadshot ? ' (headshot)' : ''}
              </td>
              <td>{k.weapon}</td>
              <td class="num">{Math.round(k.distance)} m</td>
            </tr>
          ))}
        </Table>
      )}
      {cursor && (
        <button type="button" onClick={older} disabled={more.busy}>
          Load older kills
        </button>
      )}
      {kills && !cursor && kills.length > 0 && <p class="muted">That is the first kill on this server.</p>}
    </section>
  );
}
