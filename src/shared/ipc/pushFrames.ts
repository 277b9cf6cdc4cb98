// One message per turn for the desktop's pushes, as the browser bridge does it (src/core/bridge/server.ts): the
// pushes the core makes in one turn of the main process's event loop (a monitor flush's odds batch, the alerts it
// fired, a status) go to each window as one IPC message on PUSH_CHANNEL, `{ pushes: [...] }`, in their order; a
// lone push goes as before, `{ event, payload }`. Every IPC message is a task in the page and a structured clone,
// and a busy minute fires hundreds of alerts a second: one message each kept the page's queue full.
// Shared by the main side (the batcher) and the preload (unpackPushes), which is why it is plain TypeScript.
import type { OddsBatch } from './contract';
import { createOddsFold } from './oddsFold';

export interface PushItem {
  event: string;
  payload: unknown;
}

/** What crosses PUSH_CHANNEL: one push, or the pushes of one turn. */
export type PushMessage = PushItem | { pushes: PushItem[] };

/** The pushes in a PUSH_CHANNEL message, in order; nothing for a message that is neither shape. */
export function unpackPushes(message: unknown): PushItem[] {
  if (typeof message !== 'object' || message === null) return [];
  const m = message as { event?: unknown; payload?: unknown; pushes?: unknown };
  if (Array.isArray(m.pushes))
    return (m.pushes as unknown[]).filter(
      (p): p is PushItem => typeof p === 'object' && p !== null && typeof (p as PushItem).event === 'string',
    );
  return typeof m.event === 'string' ? [{ event: m.event, payload: m.payload }] : [];
}

const isOddsBatch = (p: unknown): p is OddsBatch =>
  typeof p === 'object' &&
  p !== null &&
  Array.isArray((p as OddsBatch).events) &&
  typeof (p as OddsBatch).at === 'number';

export interface PushBatcherOptions {
  /**
   * Whether the receiver is behind (a socket whose page is not reading fast enough). While it is, odds are not sent
   * but folded to the latest value per market (src/shared/ipc/oddsFold.ts) and sent as one batch once it has caught
   * up, so a slow page costs the host a bounded amount of memory and gets the newest prices, never a replay.
   */
  congested?: () => boolean;
  /** Runs `flush` again a little later (setTimeout), to look again at a congested receiver. */
  retry?: (flush: () => void) => void;
}

/**
 * Collects pushes and hands them to `send` once per turn (`schedule` runs the flush at the turn's end: setImmediate
 * in the main process). `flush()` sends what is queued now. The odds batches of a turn go as one batch, folded to
 * the latest value per market, in the place of the turn's first one; while the receiver is congested they wait,
 * folded, and go first once it is not.
 */
export function createPushBatcher(
  send: (message: PushMessage) => void,
  schedule: (flush: () => void) => void,
  options: PushBatcherOptions = {},
): { push(event: string, payload: unknown): void; flush(): void } {
  let queued: PushItem[] = [];
  let scheduled = false;
  let retrying = false;
  const odds = createOddsFold();
  /** The odds' place in the turn's pushes (the first odds push's). */
  const ODDS_PLACE: PushItem = { event: 'onOdds', payload: null };
  const flush = () => {
    scheduled = false;
    if (queued.length === 0 && odds.size === 0) return;
    const held = options.congested?.() === true;
    let items = queued;
    queued = [];
    if (held || odds.size === 0) {
      items = items.filter((p) => p !== ODDS_PLACE);
    }
    if (held) {
      if (odds.size && !retrying && options.retry) {
        retrying = true;
        options.retry(() => {
          retrying = false;
          flush();
        });
      }
    } else if (odds.size) {
      const batch = { event: 'onOdds', payload: odds.takeAll() };
      const at = items.indexOf(ODDS_PLACE);
      if (at >= 0) items[at] = batch;
      else items.unshift(batch); // held from an earlier turn: before anything newer
    }
    if (items.length === 0) return;
    send(items.length === 1 ? items[0]! : { pushes: items });
  };
  return {
    push(event, payload) {
      if (event === 'onOdds' && isOddsBatch(payload)) {
        if (odds.size === 0 && !queued.includes(ODDS_PLACE)) queued.push(ODDS_PLACE);
        odds.add(payload);
      } else {
        queued.push({ event, payload });
      }
      if (!scheduled) {
        scheduled = true;
        schedule(flush);
      }
    },
    flush,
  };
}

/** Whether a PUSH_CHANNEL message carries odds. */
export function hasOdds(message: PushMessage): boolean {
  return 'pushes' in message ? message.pushes.some((p) => p.event === 'onOdds') : message.event === 'onOdds';
}

/** Odds frames a page that acknowledges may have on their way and not yet taken in; the next wait, folded. */
export const ODDS_IN_FLIGHT = 2;

/**
 * The odds frames on their way to one page. A page acknowledges each frame with odds once it has dispatched it to its
 * store (which folds it): until then a page whose main thread is busy gathers frames in its task queue, where nothing
 * can fold them, and shows each of them late. A page that acknowledges has at most ODDS_IN_FLIGHT frames of odds it
 * has not taken in (its batcher's `congested` says so, and the odds wait there, folded); a page that never
 * acknowledged (an older one) is not held back.
 */
export function createOddsFlow(): { sent(message: PushMessage): void; ack(): void; held(): boolean } {
  let sent = 0;
  let taken = 0;
  let acks = false;
  return {
    sent(message) {
      if (hasOdds(message)) sent++;
    },
    ack() {
      acks = true;
      taken = Math.min(sent, taken + 1);
    },
    held: () => acks && sent - taken >= ODDS_IN_FLIGHT,
  };
}
