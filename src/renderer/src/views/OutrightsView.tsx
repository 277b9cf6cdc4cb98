// Outrights: outright markets with their contestants, grouped by sport and league, filtered by sport and by the
// minimum number of contestants.
import { useMemo, useState } from 'react';
import { OUTRIGHT_MIN_CONTESTANTS_DEFAULT, type OutrightMarket } from '../../../shared/api';
import { fairPriceProblem } from '../../../shared/devig';
import { host } from '../host';
import { Time } from '../components/Time';
import { fmtLine, serviceMs, useOdds } from '../format';
import { SportSelect } from '../components/SportSelect';
import { useQuery } from '../hooks';
import { useStore } from '../store';

export function OutrightsView() {
  const setView = useStore((s) => s.setView);
  const fmtOdds = useOdds();
  const [sportId, setSportId] = useState<number | null>(null);
  const [minContestants, setMin] = useState(OUTRIGHT_MIN_CONTESTANTS_DEFAULT);
  const [text, setText] = useState('');
  const {
    data: markets,
    error,
    reload,
  } = useQuery(`${sportId}:${minContestants}`, () =>
    host.invoke('outrights:list', { ...(sportId !== null ? { sportId } : {}), minContestants }),
  );

  const groups = useMemo(() => {
    const q = text.trim().toLowerCase();
    const bySport = new Map<string, Map<string, OutrightMarket[]>>();
    for (const m of markets ?? []) {
      if (
        q &&
        !`${m.special_name} ${m.league_name} ${m.home} ${m.away} ${m.contestants.map((c) => c.name).join(' ')}`
          .toLowerCase()
          .includes(q)
      )
        continue;
      const leagues = bySport.get(m.sport_name) ?? new Map<string, OutrightMarket[]>();
      bySport.set(m.sport_name, leagues);
      leagues.set(m.league_name, [...(leagues.get(m.league_name) ?? []), m]);
    }
    return [...bySport.entries()]
      .sort((a, b) => a[0].localeCompare(b[0]))
      .map(([sport, leagues]) => ({
        sport,
        leagues: [...leagues.entries()].sort((a, b) => a[0].localeCompare(b[0])),
      }));
  }, [markets, text]);
  const count = groups.reduce((n, g) => n + g.leagues.reduce((k, [, ms]) => k + ms.length, 0), 0);

  return (
    <section className="view outrights" aria-labelledby="outrights-title">
      <header className="view-header">
        <h1 id="outrights-title">Outrights</h1>
        <span className="muted" data-testid="outright-count">
          {markets ? `${count} markets` : ''}
        </span>
        <input
          type="search"
          data-search
          placeholder="Filter (/)"
          value={text}
          onChange={(e) => setText(e.target.value)}
          aria-label="Filter outrights"
        />
        <SportSelect value={sportId} onChange={setSportId} testId="outright-sport" />
        <label className="check">
          min contestants{' '}
          <input
            type="number"
            className="narrow"
            min={1}
            max={100}
            value={minContestants}
            onChange={(e) => {
              const n = Number(e.target.value);
              if (Number.isInteger(n) && n >= 1 && n <= 100) setMin(n);
            }}
            data-testid="outright-min"
          />
        </label>
      </header>
      {error?.kind === 'plan' && (
        <div className="calm-message plan" data-testid="outrights-restricted">
          Outrights need the {error.requiredPlan ?? 'enterprise'} plan; your plan: {error.yourPlan ?? 'unknown'}.{' '}
          <button onClick={() => setView('settings')}>Use another key</button>
        </div>
      )}
      {error && error.kind !== 'plan' && (
        <div className="calm-message" role="alert">
          Outrights are not available: {error.message} <button onClick={reload}>Try again</button>
        </div>
      )}
      {!markets && !error && <p className="calm-message">Loading outrights…</p>}
      {markets && count === 0 && (
        <p className="calm-message">
          No outright market with at least {minContestants} contestants. Lower the minimum to see more.
        </p>
      )}
      {groups.map((g) => (
        <section key={g.sport} className="outright-sport">
          <h2>{g.sport}</h2>
          {g.leagues.map(([league, ms]) => (
            <div key={league} className="outright-league">
              <h3>{league}</h3>
              <div className="cards">
                {ms.map((m) => (
                  <article
                    key={`${m.event_id}-${m.special_id}`}
                    className="card"
                    data-testid={`outright-${m.special_id}`}
                  >
                    <header>
                      <strong>{m.special_name}</strong>
                      <div className="muted small-text">
                        {m.home} v {m.away} · cutoff <Time ms={serviceMs(m.cutoff)} withDate /> · {m.contestants.length}{' '}
                        contestants
                      </div>
                    </header>
                    <table className="grid compact">
                      <tbody>
                        {[...m.contestants]
                          .sort((a, b) => a.odds - b.odds)
                          .map((c) => {
                            const problem = fairPriceProblem(c.odds, c.todds);
                            return (
                              <tr key={c.name}>
                                <td className="ellipsis">{c.name}</td>
                                <td className="num muted">{c.handicap ? fmtLine(c.handicap) : ''}</td>
                                <td className="num">{fmtOdds(c.odds)}</td>
                                <td
                                  className="num muted"
                                  data-testid="outright-true"
                                  title={
                                    problem ??
                                    "True odds as the service gives them: de-vigged under the account's model on the service, which may not be the model chosen in Settings"
                                  }
                                >
                                  {problem ? '—' : fmtOdds(c.todds)}
                                </td>
                              </tr>
                            );
                          })}
                      </tbody>
                    </table>
                  </article>
                ))}
              </div>
            </div>
          ))}
        </section>
      ))}
    </section>
  );
}
