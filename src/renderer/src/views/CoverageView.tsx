// Coverage: how many events each sport has in the book right now.
import { useEffect } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useStore } from '../store';

export function CoverageView() {
  const { coverage, loading, error, load } = useStore(
    useShallow((s) => ({ coverage: s.coverage, loading: s.coverageLoading, error: s.coverageError, load: s.loadCoverage })),
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
              <th className="num">Events</th>
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
    </section>
  );
}
