// After a network fault the client knocks with the free probe (/api/status: no key, no quota), backing off, until the
// service answers again; an answer to any request ends the knocking, and so does the client closing.
import type { Clock, TimerHandle } from '../clock';
import { backoffDelay, type Governor } from './governor';

/** Backoff of the probes; `false` turns the probing off (the host then finds out on its next request). */
export type ProbePolicy = { baseMs: number; maxMs: number } | false;

const DEFAULT_PROBE = { baseMs: 1000, maxMs: 30_000 };

/** Probes with `knock` while the governor finds the service unreachable; returns the function that stops it. */
export function watchReachability(
  governor: Governor,
  clock: Clock,
  policy: ProbePolicy | undefined,
  knock: () => Promise<unknown>,
): () => void {
  const probePolicy = policy === false ? null : (policy ?? DEFAULT_PROBE);
  let probeTimer: TimerHandle | null = null;
  let probeAttempt = 0;
  let probing = false;
  let disposed = false;
  function scheduleProbe() {
    if (!probePolicy || disposed || probeTimer !== null || probing) return;
    probeAttempt++;
    probeTimer = clock.setTimeout(
      async () => {
        probeTimer = null;
        if (governor.state().reachable !== false) return;
        probing = true;
        await knock();
        probing = false;
        // An answer of any kind sets the governor reachable; otherwise knock again, later.
        if (governor.state().reachable === false) scheduleProbe();
      },
      backoffDelay(probeAttempt, probePolicy, Math.random),
    );
  }
  const stopWatching = governor.subscribe((st) => {
    if (st.reachable === false) scheduleProbe();
    else {
      probeAttempt = 0;
      if (probeTimer !== null) clock.clearTimeout(probeTimer);
      probeTimer = null;
    }
  });
  return () => {
    disposed = true;
    stopWatching();
    if (probeTimer !== null) clock.clearTimeout(probeTimer);
    probeTimer = null;
  };
}
