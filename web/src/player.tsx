// The public player page, /p/<identifier>: no sign-in. The player's trust score and band, the
// reasons in plain words, which communities' pool entries count and in which category (never who
// submitted or their notes), and how to appeal. Reads the public trust lookup and its entries.
import './styles.css';
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ApiFailure, api } from './api.ts';
import { DateText, ErrorText, Loading, PageTitle, Problem, Table, TextField } from './components.tsx';
import { categoryWords } from './types.ts';
import type { PublicEntry, TrustPublicEntries, TrustScore } from './types.ts';

const bandWords: Record<TrustScore['band'], { name: string; meaning: string; tone: 'ok' | 'off' | 'warn' | 'bad' }> = {
  trusted: { name: 'Trusted', meaning: 'A long, clean record on the network.', tone: 'ok' },
  neutral: { name: 'Neutral', meaning: 'Nothing against the player, or not enough history to say more.', tone: 'off' },
  watch: { name: 'Watch', meaning: 'Something in the record deserves a closer look; it is not a ban by itself.', tone: 'warn' },
  high_risk: {
    name: 'High risk',
    meaning: 'Communities of the network have banned this player, and moderators confirmed it.',
    tone: 'bad',
  },
};

const statusWords: Record<PublicEntry['status'], string> = {
  active: 'Approved by a network moderator and in force: counts against the score.',
  pending: 'Reported, waiting for a network moderator: counts a little until reviewed.',
  expired: 'Ended: counts less, and less every month.',
  overturned: "Overturned on appeal: counts in the player's favour.",
};

function confidenceWords(c: number): string {
  if (c >= 0.75) return 'high, the score rests on plenty of evidence';
  if (c >= 0.4) return 'medium';
  return 'low, there is little history yet';
}

/** "Banned for now by 1 community ...: -30" -> the sentence and its points apart. */
function reasonParts(reason: string): { text: string; points: string | null } {
  const m = /^(.*): ([+-]?\d+(?:\.\d+)?)$/.exec(reason);
  return m ? { text: m[1]!, points: m[2]! } : { text: reason, points: null };
}

/** The lookup's refusals, said for a visitor rather than an admin. */
function inWords(error: unknown): unknown {
  if (!(error instanceof ApiFailure)) return error;
  if (error.code === 'NOT_FOUND')
    return new Problem('The network does not know this player: no server of the network has seen them and no community has reported them.');
  if (error.code === 'BAD_REQUEST')
    return new Problem(
      "This is not a player id the network understands. Use a Steam64 (7656119…), STEAM_0:1:…, DayZ ID, BattlEye GUID, the network's player UUID or discord:<user id>.",
    );
  return error;
}

const identifierOf = () => {
  const raw = location.pathname.replace(/^\/p\/?/, '');
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
};

function PlayerPage() {
  const identifier = identifierOf();
  const [state, setState] = useState<{ score?: TrustScore; entries?: PublicEntry[]; error?: unknown }>({});
  const [lookup, setLookup] = useState('');

  useEffect(() => {
    if (!identifier) return;
    document.title = `Player ${identifier} · Trust`;
    const path = `/api/v1/trust/${encodeURIComponent(identifier)}`;
    Promise.all([api<TrustScore>('GET', path), api<TrustPublicEntries>('GET', `${path}/entries`)]).then(
      ([score, entries]) => setState({ score, entries: entries.entries }),
      (error: unknown) => setState({ error: inWords(error) }),
    );
  }, [identifier]);

  const go = (e: Event) => {
    e.preventDefault();
    if (lookup.trim()) location.assign(`/p/${encodeURIComponent(lookup.trim())}`);
  };
  const form = (
    <form onSubmit={go} role="search" aria-label="Look up a player" class="panel">
      <div class="row">
        <TextField
          label="Player id"
          value={lookup}
          onInput={setLookup}
          required
          hint="Steam64 (7656119…), STEAM_0:1:…, DayZ ID, BattlEye GUID, the network's player UUID, or discord:<user id>."
        />
        <div class="field button">
          <button type="submit" class="primary">
            Look up
          </button>
        </div>
      </div>
    </form>
  );

  if (!identifier) {
    return (
      <main id="main">
        <PageTitle>Player trust lookup</PageTitle>
        <p>Look a player up by any of their ids.</p>
        {form}
      </main>
    );
  }
  const { score, entries, error } = state;
  return (
    <main id="main">
      <PageTitle>
        Player <span class="mono">{identifier}</span>
      </PageTitle>
      <p class="muted">
        What the game-server communities of this network know about the player: a public record, the same one the communities see.
      </p>
      {error !== undefined && <ErrorText error={error} />}
      {!error && !score && <Loading what="the player's record" />}
      {score && entries && (
        <>
          {score.platformId !== identifier && (
            <p class="muted">
              Known to the network as <span class="mono">{score.platformId}</span>.
            </p>
          )}
          <section aria-labelledby="score-title">
            <h2 id="score-title">Trust score</h2>
            <div class="score">
              <span class="value">
                {score.score}
                <span class="visually-hidden"> out of 100</span>
              </span>
              <span aria-hidden="true" class="muted">
                / 100
              </span>
              <span class={`badge ${bandWords[score.band].tone}`}>{bandWords[score.band].name}</span>
            </div>
            <p>{bandWords[score.band].meaning}</p>
            <p class="muted">
              Confidence {Math.round(score.confidence * 100)}% ({confidenceWords(score.confidence)}). Worked out{' '}
              <DateText iso={score.computedAt} />.
            </p>
            <h3>Why this score</h3>
            <ul class="reasons">
              {score.reasons.map((r) => {
                const { text, points } = reasonParts(r);
                return (
                  <li key={r}>
                    {text}
                    {points && (
                      <>
                        : <strong>{points} points</strong>
                      </>
                    )}
                  </li>
                );
              })}
            </ul>
          </section>
          <section aria-labelledby="entries-title">
            <h2 id="entries-title">Communities that reported this player</h2>
            {entries.length === 0 ? (
              <p>No community of the network has reported this player.</p>
            ) : (
              <Table
                caption="Reports in the network's ban pool, newest first"
                head={['Community', 'Category', 'Where it stands', 'Reported', 'Ends']}
              >
                {entries.map((e, i) => (
                  <tr key={`${e.community}-${e.submittedAt}-${i}`}>
                    <td>{e.community}</td>
                    <td>{categoryWords[e.category]}</td>
                    <td>{statusWords[e.status]}</td>
                    <td>
                      <DateText iso={e.submittedAt} />
                    </td>
                    <td>{e.expiresAt ? <DateText iso={e.expiresAt} /> : 'No end date'}</td>
                  </tr>
                ))}
              </Table>
            )}
            <p class="muted">Only the community and category are public. Who reported the player and the moderators' notes stay private.</p>
          </section>
          <section aria-labelledby="appeal-title">
            <h2 id="appeal-title">How to appeal</h2>
            <ol>
              <li>Contact the community named above, on its Discord or website, and ask which ban this is and why.</li>
              <li>If the community agrees it was wrong, it lifts its ban and asks the network's moderators to overturn the report.</li>
              <li>
                If it does not, ask the network's moderators (through the operator of this service) to review the evidence. A report
                overturned on appeal counts in your favour from then on.
              </li>
            </ol>
            <p class="muted">Reports that end count less every month; a player with a clean history earns points back over time.</p>
          </section>
        </>
      )}
      <h2>Look up another player</h2>
      {form}
    </main>
  );
}

render(<PlayerPage />, document.getElementById('app')!);
