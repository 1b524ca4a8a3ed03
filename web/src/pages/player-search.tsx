// Finding a player, /players?q=: the account's players whose name (current or earlier) starts with
// q, or the one player q names in any id form; each hit links to the profile. The header's search
// field leads here.
import { useEffect, useState } from 'preact/hooks';
import { api, query } from '../api.ts';
import { DateText, ErrorText, Loading, PageTitle, Table, TextField, useLoad } from '../components.tsx';
import { PlayerLink } from '../player-link.tsx';
import { Link, navigate, useSearch } from '../router.tsx';
import type { PlayerIds, PlayerSearch } from '../types.ts';

export const searchPath = (q: string) => `/players${query({ q: q.trim() })}`;

const otherIds = (ids: PlayerIds) => [ids.steam64, ids.dayzId, ...ids.consoleIds].filter((v): v is string => !!v && v !== ids.platformId);

export function PlayerSearchPage() {
  const search = useSearch();
  const q = new URLSearchParams(search).get('q')?.trim() ?? '';
  const [typed, setTyped] = useState(q);
  useEffect(() => setTyped(q), [q]);
  const found = useLoad(async () => (q ? api<PlayerSearch>('GET', `/api/players${query({ q, limit: 50 })}`) : null), [q]);
  return (
    <>
      <PageTitle>Players</PageTitle>
      <form
        class="panel"
        role="search"
        aria-label="Find a player on this page"
        onSubmit={(e) => {
          e.preventDefault();
          if (typed.trim()) navigate(searchPath(typed));
        }}
      >
        <div class="row">
          <TextField
            label="Name or id"
            value={typed}
            onInput={setTyped}
            required
            maxLength={100}
            hint="The start of a name (current or earlier), or any id: Steam64, DayZ ID, GUID, console id."
          />
          <div class="field button">
            <button type="submit" class="primary">
              Find
            </button>
          </div>
        </div>
      </form>
      <ErrorText error={found.error} />
      {q && found.loading && <Loading what="the players" />}
      {found.data && (
        <>
          <Table
            caption={`Players ${found.data.match === 'id' ? 'with the id' : 'whose name starts with'} ${q}`}
            head={['Name', 'Ids', 'Last seen', 'Servers']}
            empty={found.data.players.length === 0 && 'No player of your servers matches.'}
          >
            {found.data.players.map((p) => (
              <tr key={p.ids.platformId}>
                <td>
                  <PlayerLink platformId={p.ids.platformId} name={p.lastName ?? p.ids.platformId} />
                  {p.matchedName && p.matchedName !== p.lastName && <div class="muted">once {p.matchedName}</div>}
                </td>
                <td>
                  <div class="mono">{p.ids.platformId}</div>
                  {otherIds(p.ids).map((id) => (
                    <div class="mono" key={id}>
                      {id}
                    </div>
                  ))}
                </td>
                <td>
                  <DateText iso={p.lastSeenAt} />
                </td>
                <td>
                  {p.servers.map((s, i) => (
                    <span key={s.id}>
                      {i > 0 && ', '}
                      <Link href={`/servers/${s.id}`}>{s.name}</Link>
                    </span>
                  ))}
                </td>
              </tr>
            ))}
          </Table>
          {found.data.more && <p class="muted">More players match: type more of the name to narrow the list.</p>}
        </>
      )}
    </>
  );
}

/** The header's field: one box for a name or any id, answered on the search page. */
export function HeaderSearch() {
  const [typed, setTyped] = useState('');
  return (
    <form
      class="header-search"
      role="search"
      aria-label="Find a player"
      onSubmit={(e) => {
        e.preventDefault();
        if (!typed.trim()) return;
        navigate(searchPath(typed));
        setTyped('');
      }}
    >
      <label for="header-player-search" class="visually-hidden">
        Search players
      </label>
      <input
        id="header-player-search"
        type="search"
        placeholder="Find a player (name or id)"
        value={typed}
        maxLength={100}
        onInput={(e) => setTyped(e.currentTarget.value)}
      />
      <button type="submit">Find</button>
    </form>
  );
}
