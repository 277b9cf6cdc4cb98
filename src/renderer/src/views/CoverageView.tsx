// Coverage: how many events each sport has in the book right now, and what this hour's requests were spent on, in
// the words the quota's tooltip uses (src/shared/requests.ts).
import { useEffect } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { purposeSplit, quotaSourceWords, turnedAwayWords } from '../../../shared/requests';
import { useStore } from '../store';

export function CoverageView() {
  const { coverage, loading, error, load } = useStore(
    useShallow((s) => ({
      coverage: s.coverage,
      loading: s.coverageLoading,
      error: s.coverageError,
      load: s.loadCoverage,
    })),
  );
  useEffect(() => {
    void load();
  }, [load]);

  return (
    <section className="view" aria-labelledby="coverage-title">
      <header className="view-header">
        <h1 id="coverage-title">Coverage</h1>
        <button onClick={() => void load()} disabled={loading}>
          {loading ? 'Refreshing…' : 'Refresh'}
        </button>
      </header>
      {error && (
        <p className="calm-message" role="alert">
          {error.message}
        </p>
      )}
      {!coverage && !error && <p className="calm-message">Loading coverage…</p>}
      {coverage && coverage.sports.length === 0 && <p className="calm-message">No events in the book right now.</p>}
      {coverage && coverage.sports.length > 0 && (
        <table className="grid" data-testid="coverage-table">
          <thead>
            <tr>
              <th>Sport</th>
              <th className="num">Events in the book</th>
            </tr>
          </thead>
          <tbody>
            {coverage.sports.map((row) => (
              <tr key={row.sport} data-sport={row.sport}>
                <td>{row.sport}</td>
                <td className="num" data-testid={`coverage-${row.sport}`}>
                  {row.events.toLocaleString('en-US')}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <RequestSplit />
    </section>
  );
}

const capitalised = (words: string) => words.charAt(0).toUpperCase() + words.slice(1);

/** Every purpose with this hour's count, zeros included, so a quiet purpose is visibly quiet. */
function RequestSplit() {
  const quota = useStore((s) => s.status?.quota);
  if (!quota?.byPurpose) return null;
  const rows = purposeSplit(quota.byPurpose);
  const total = rows.reduce((a, r) => a + r.count, 0);
  // Requests held back over their purpose's share (never sent): a column only in an hour that had some.
  const refused = quota.refused ?? null;
  const refusedTotal = refused ? Object.values(refused).reduce((a, c) => a + c, 0) : 0;
  return (
    <>
      <h2>Requests this hour</h2>
      <table className="grid" data-testid="coverage-requests">
        <thead>
          <tr>
            <th>What for</th>
            <th className="num">Requests sent</th>
            {refusedTotal > 0 && (
              <th className="num" title="Requests the app did not send: their purpose had used its share of the hour">
                Held back (not sent)
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.purpose}>
              <td>{capitalised(r.label)}</td>
              <td className="num" data-testid={`coverage-requests-${r.purpose}`}>
                {r.count.toLocaleString('en-US')}
              </td>
              {refusedTotal > 0 && (
                <td className="num" data-testid={`coverage-refused-${r.purpose}`}>
                  {(refused?.[r.purpose] ?? 0).toLocaleString('en-US')}
                </td>
              )}
            </tr>
          ))}
          <tr>
            <td>Total{quota.rateLimited > 0 ? `, ${turnedAwayWords(quota.rateLimited)}` : ''}</td>
            <td className="num" data-testid="coverage-requests-total">
              {total.toLocaleString('en-US')}
            </td>
            {refusedTotal > 0 && (
              <td className="num" data-testid="coverage-refused-total">
                {refusedTotal.toLocaleString('en-US')}
              </td>
            )}
          </tr>
        </tbody>
      </table>
      <p className="muted small-text" data-testid="coverage-requests-source">
        {capitalised(quotaSourceWords(quota.limit, quota.source))}.
      </p>
    </>
  );
}
