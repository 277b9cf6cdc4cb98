// Look-ups the trader asks for (coverage, sports, fixtures, outrights): each one request, counted as 'ui', and
// recorded so it stays reviewable offline.
import type { CoreHandlers, CoverageView } from '../../shared/ipc/contract';
import { AppErrorException } from '../../shared/errors';
import { online, store, type CoreContext } from './context';

const ui = { priority: 'normal', purpose: 'ui' } as const;
/** The service's default minimum of contestants (spec, /api/specials/outright-markets). */
const DEFAULT_MIN_CONTESTANTS = 8;

export function lookupHandlers(
  ctx: CoreContext,
): Pick<CoreHandlers, 'coverage:get' | 'sports:list' | 'periods:list' | 'fixtures:list' | 'outrights:list'> {
  return {
    'coverage:get': async (): Promise<CoverageView> => {
      try {
        const raw = await online(ctx, (c) => c.coverage(ui));
        store(ctx).odds.recordCoverage(raw, ctx.clock.now());
        const sports = Object.entries(raw.standard)
          .map(([sport, events]) => ({ sport, events }))
          .sort((a, b) => a.sport.localeCompare(b.sport));
        return { sports, fetchedAt: ctx.clock.now(), raw };
      } catch (e) {
        // Offline: the last sample we recorded, marked by its time.
        const cached = store(ctx).history.latestCoverage();
        if (cached.length === 0) throw e;
        const raw = { standard: Object.fromEntries(cached.map((c) => [c.sportName, c.count])) };
        return {
          sports: cached
            .map((c) => ({ sport: c.sportName, events: c.count }))
            .sort((a, b) => a.sport.localeCompare(b.sport)),
          fetchedAt: cached[0]!.at,
          raw,
        };
      }
    },
    'sports:list': async () => {
      try {
        const sports = await online(ctx, (c) => c.sports(ui));
        store(ctx).odds.recordSports(sports);
        return sports;
      } catch (e) {
        // Offline (or no service): the names we stored keep the sport filter and labels alive.
        const stored = store(ctx).history.storedSports();
        if (stored.length === 0) throw e;
        return stored;
      }
    },
    'periods:list': () => store(ctx).history.periods(),
    'fixtures:list': async (q) => {
      const fixtures = await online(ctx, (c) =>
        c.fixtures(
          { ...(q.sportId === undefined ? {} : { sportId: q.sportId }), ...(q.liveOnly ? { live: true } : {}) },
          ui,
        ),
      );
      const s = store(ctx);
      s.odds.recordFixtures(fixtures, ctx.clock.now());
      const watched = new Set(s.watchlist.watchIds());
      return fixtures.map((f) => ({ ...f, watched: watched.has(f.event_id) }));
    },
    'outrights:list': async (q) => {
      try {
        const markets = await online(ctx, (c) =>
          c.outrightMarkets(
            {
              ...(q.sportId === undefined ? {} : { sportId: q.sportId }),
              ...(q.minContestants === undefined ? {} : { minContestants: q.minContestants }),
            },
            ui,
          ),
        );
        store(ctx).odds.recordOutrights(markets, ctx.clock.now());
        return markets;
      } catch (e) {
        // Unreachable: the markets as last fetched (a plan refusal is not offline, and says so).
        if (e instanceof AppErrorException && e.error.kind === 'plan') throw e;
        const cached = store(ctx).history.storedOutrights({
          ...(q.sportId === undefined ? {} : { sportId: q.sportId }),
          minContestants: q.minContestants ?? DEFAULT_MIN_CONTESTANTS,
        });
        if (cached.length === 0) throw e;
        return cached;
      }
    },
  };
}
