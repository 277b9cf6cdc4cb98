// Small hooks shared by views: reference lists that change rarely and are fetched once per mount.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { Sport } from '../../shared/api';
import type { AppError, Result } from '../../shared/errors';
import { NO_PERIOD_NAMES, periodNames, type PeriodNames } from '../../shared/periods';
import { host } from './host';

let sportsCache: Sport[] | null = null;

/** The sports list, sorted by name; empty until it arrives (or when the core cannot answer). */
export function useSports(): Sport[] {
  const [sports, setSports] = useState<Sport[]>(sportsCache ?? []);
  useEffect(() => {
    if (sportsCache) return;
    let live = true;
    void host.invoke('sports:list').then((r) => {
      if (!r.ok) return;
      sportsCache = [...r.value].sort((a, b) => a.name.localeCompare(b.name));
      if (live) setSports(sportsCache);
    });
    return () => {
      live = false;
    };
  }, []);
  return sports;
}

let periodNamesCache: PeriodNames | null = null;

/**
 * The service's period descriptions (stored by the core, so they answer offline too); empty until they arrive. An
 * empty answer (a service not asked yet) is not cached, so the next mount asks again.
 */
export function usePeriodNames(): PeriodNames {
  const [names, setNames] = useState<PeriodNames>(periodNamesCache ?? NO_PERIOD_NAMES);
  useEffect(() => {
    if (periodNamesCache) return;
    let live = true;
    void host.invoke('periods:list').then((r) => {
      if (!r.ok) return;
      const got = periodNames(r.value);
      if (got.size > 0) periodNamesCache = got;
      if (live) setNames(got);
    });
    return () => {
      live = false;
    };
  }, []);
  return names;
}

export interface Query<T> {
  data: T | null;
  error: AppError | null;
  /** True until the first answer for the current key. */
  loading: boolean;
  reload(): void;
}

/**
 * Runs `fetcher` whenever `key` changes (null: nothing to fetch) and, with `refreshMs`, again on that period.
 * Answers for an older key are dropped. The data of the previous key is cleared at once, so a view never shows
 * one event's data under another's title.
 */
export function useQuery<T>(key: string | null, fetcher: () => Promise<Result<T>>, refreshMs?: number): Query<T> {
  const [state, setState] = useState<{ key: string | null; data: T | null; error: AppError | null }>({
    key: null,
    data: null,
    error: null,
  });
  const fetchRef = useRef(fetcher);
  fetchRef.current = fetcher;
  const [nonce, setNonce] = useState(0);
  useEffect(() => {
    if (key === null) return;
    let alive = true;
    const run = async () => {
      const r = await fetchRef.current();
      if (!alive) return;
      setState((s) =>
        r.ok ? { key, data: r.value, error: null } : { key, data: s.key === key ? s.data : null, error: r.error },
      );
    };
    void run();
    const t = refreshMs ? setInterval(() => void run(), refreshMs) : undefined;
    return () => {
      alive = false;
      if (t) clearInterval(t);
    };
  }, [key, refreshMs, nonce]);
  const reload = useCallback(() => setNonce((n) => n + 1), []);
  const current = state.key === key;
  return {
    data: current ? state.data : null,
    error: current ? state.error : null,
    loading: key !== null && !current,
    reload,
  };
}
