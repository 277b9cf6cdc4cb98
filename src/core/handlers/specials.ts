// Specials of an event: from the store, refreshed through the engine the first time an event is opened.
import { PATHS } from '../../shared/api';
import type { AppError } from '../../shared/errors';
import type { CoreHandlers, SpecialsView } from '../../shared/ipc/contract';
import { conn, store, type CoreContext } from './context';

export function specialsHandlers(ctx: CoreContext): Pick<CoreHandlers, 'specials:list' | 'specials:history'> {
  function view(eventId: number): SpecialsView {
    const c = conn(ctx);
    const r = c.engine?.client.governor.state().restrictedPaths.find((p) => p.path === PATHS.specialsFixtures);
    const restricted: AppError | null = r
      ? {
          kind: 'plan',
          message: r.message,
          yourPlan: r.yourPlan ?? 'unknown',
          requiredPlan: r.requiredPlan ?? 'enterprise',
        }
      : null;
    return {
      eventId,
      restricted,
      specials: c.store.history.specialsOf(eventId),
      maxWinPoints: c.store.history.maxWinPointsOf(eventId),
      lineMaxWinPoints: c.store.history.lineMaxWinChangesOf(eventId),
    };
  }
  return {
    'specials:list': async (eventId) => {
      const c = conn(ctx);
      if (c.engine && c.store.history.specialsOf(eventId).length === 0)
        await c.engine.monitor.refreshSpecials([eventId]);
      return view(eventId);
    },
    'specials:history': (_eventId, specialId, contestantId) =>
      store(ctx).history.specialHistory(specialId, contestantId),
  };
}
