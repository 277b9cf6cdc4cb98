// The watchlist and what is recorded of an event: watch and unwatch go through the engine (streams open and
// close), and work offline against the profile's store when no engine runs. A watch by id is checked first: an id the
// service's book does not hold (made up, mistyped, or a match that has ended) is refused in words, and no row is made.
import type { AppError } from '../../shared/errors';
import type { CoreHandlers } from '../../shared/ipc/contract';
import type { Connection } from '../session';
import { conn, noteOutcome, notFound, settledStore, store, type CoreContext } from './context';

/** "Riverbridge Sox v Frosthaven Anchors (event 1600123)", or "event 1600123" when nothing is known of it. */
function named(c: Connection, eventId: number): string {
  const e = c.store.history.eventView(eventId);
  return e?.runnerHome && e.runnerAway ? `${e.runnerHome} v ${e.runnerAway} (event ${eventId})` : `event ${eventId}`;
}

/**
 * Whether an event may be watched: it is in the service's book now. The look-up is the trader's own (one request,
 * counted on screen, within that share of the quota; one sport's fixtures when the sport is known). Throws a
 * not_found in words for an id the book does not hold, and for a match whose settlement is stored (no request).
 * When the book cannot be asked (no service, offline, the look-ups' share used up), the watch is not held up: its
 * stream answers for it, and the row says what the stream says.
 */
async function checkWatchable(ctx: CoreContext, c: Connection, eventId: number): Promise<void> {
  const s = c.store;
  if (s.watchlist.watchIds().includes(eventId)) return;
  const settled = s.settlements.settlement(eventId);
  if (settled) {
    throw notFound(
      `${capital(named(c, eventId))} has ended (settled ${settled.score_home}–${settled.score_away}): there is nothing left to watch. Its result is in Settlements.`,
    );
  }
  if (!c.engine) return;
  const sportId = s.history.eventView(eventId)?.sportId ?? undefined;
  const r = await c.engine.client.fixtures(sportId === undefined ? {} : { sportId }, {
    priority: 'normal',
    purpose: 'ui',
  });
  noteOutcome(ctx, r.ok ? null : r.error);
  if (!r.ok) return;
  const found = r.value.find((f) => f.event_id === eventId);
  if (found) {
    // The row is named from the book at once, not "Event 1600123" until the stream's snapshot.
    s.odds.recordFixtures([found], ctx.clock.now());
    return;
  }
  if (s.history.eventView(eventId))
    throw notFound(
      `${capital(named(c, eventId))} is no longer in the service's book: it has ended or was taken off. Nothing to watch.`,
    );
  throw notFound(
    `There is no event ${eventId} in the service's book. Check the id: a match that has ended leaves the book too.`,
  );
}

const capital = (t: string) => t.charAt(0).toUpperCase() + t.slice(1);

export function watchlistHandlers(
  ctx: CoreContext,
): Pick<CoreHandlers, 'watch:list' | 'watch:add' | 'watch:remove' | 'event:detail' | 'event:lineHistory'> {
  return {
    'watch:list': () => store(ctx).watchlist.watchedEvents(),
    'watch:add': async (eventId) => {
      const c = conn(ctx);
      await checkWatchable(ctx, c, eventId);
      if (c.engine) await c.engine.monitor.watch(eventId);
      else c.store.watchlist.addWatch(eventId, ctx.clock.now());
      // One read of the watchlist serves both the push and the answer.
      const list = c.store.watchlist.watchedEvents();
      ctx.pushes.push('onWatchlist', list);
      const added = list.find((w) => w.eventId === eventId);
      if (!added) throw notFound(`Event ${eventId} is not on the watchlist`);
      return added;
    },
    'watch:remove': (eventId) => {
      const c = conn(ctx);
      if (c.engine) {
        const engine = c.engine;
        // The error this event's stream left in the status goes with it, unless another watched stream has the same.
        const error = engine.streams.state(eventId)?.error;
        engine.monitor.unwatch(eventId);
        if (error) {
          const shown = engine.client.governor.scrubError(error);
          const same = (e: AppError | undefined) =>
            e !== undefined && e.kind === shown.kind && engine.client.governor.scrubError(e).message === shown.message;
          if (!engine.monitor.streamStates().some((st) => same(st.error))) ctx.pushes.forgetError(shown);
        }
      } else c.store.watchlist.removeWatch(eventId);
      ctx.pushes.push('onWatchlist', c.store.watchlist.watchedEvents());
      // Dropping a stream emits no state of its own: without this the status bar kept counting it.
      ctx.pushes.scheduleStatus();
      return null;
    },
    'event:detail': async (eventId) => {
      const s = await settledStore(ctx);
      const event = s.history.eventView(eventId);
      if (!event) throw notFound(`Nothing is recorded for event ${eventId} yet`);
      const settlement = s.settlements.settlement(eventId);
      return {
        event,
        watched: s.watchlist.watchIds().includes(eventId),
        settled: settlement !== null,
        markets: s.history.latestMarkets(eventId),
        periodResults: s.settlements.results(eventId),
        liveStates: s.history.liveStateHistory(eventId),
        settlement,
      };
    },
    'event:lineHistory': async (eventId, lineId) => (await settledStore(ctx)).history.oddsHistory(eventId, lineId),
  };
}
