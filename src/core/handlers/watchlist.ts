// The watchlist and what is recorded of an event: watch and unwatch go through the engine (streams open and
// close), and work offline against the profile's store when no engine runs.
import type { CoreHandlers } from '../../shared/ipc/contract';
import { conn, notFound, store, type CoreContext } from './context';

export function watchlistHandlers(ctx: CoreContext): Pick<CoreHandlers, 'watch:list' | 'watch:add' | 'watch:remove' | 'event:detail' | 'event:lineHistory'> {
  return {
    'watch:list': () => store(ctx).watchedEvents(),
    'watch:add': async (eventId) => {
      const c = conn(ctx);
      if (c.engine) await c.engine.monitor.watch(eventId);
      else c.store.addWatch(eventId, ctx.clock.now());
      // One read of the watchlist serves both the push and the answer.
      const list = c.store.watchedEvents();
      ctx.pushes.push('onWatchlist', list);
      const added = list.find((w) => w.eventId === eventId);
      if (!added) throw notFound(`Event ${eventId} is not on the watchlist`);
      return added;
    },
    'watch:remove': (eventId) => {
      const c = conn(ctx);
      if (c.engine) c.engine.monitor.unwatch(eventId);
      else c.store.removeWatch(eventId);
      ctx.pushes.push('onWatchlist', c.store.watchedEvents());
      // Dropping a stream emits no state of its own: without this the status bar kept counting it.
      ctx.pushes.scheduleStatus();
      return null;
    },
    'event:detail': (eventId) => {
      const s = store(ctx);
      const event = s.eventView(eventId);
      if (!event) throw notFound(`Nothing is recorded for event ${eventId} yet`);
      const settlement = s.settlement(eventId);
      return {
        event,
        watched: s.watchIds().includes(eventId),
        settled: settlement !== null,
        markets: s.latestMarkets(eventId),
        periodResults: s.results(eventId),
        liveStates: s.liveStateHistory(eventId),
        settlement,
      };
    },
    'event:lineHistory': (eventId, lineId) => store(ctx).oddsHistory(eventId, lineId),
  };
}
