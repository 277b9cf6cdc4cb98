// The in-page half of the tick-to-screen bench: what Chromium records while the watchlist grid runs under load.
// Each function is serialised by Playwright and run in the page, so none may use anything from outside its own body.

// The page's APIs, typed only as far as the probe uses them: the bench compiles under the Node tsconfig, and a DOM lib
// reference here would leak DOM globals into every Node file of the program. Module-scoped, so nothing else sees them.
interface PageNode {
  parentElement: PageElement | null;
}
interface PageElement extends PageNode {
  textContent: string | null;
  getAttribute(name: string): string | null;
  closest(selector: string): PageElement | null;
}
interface PageEntry {
  entryType: string;
  startTime: number;
  duration: number;
}
declare const document: {
  querySelector(selector: string): PageElement | null;
  querySelectorAll(selector: string): Iterable<PageElement>;
};
declare const window: { WebSocket: new (url: string) => PageSocket };
interface PageSocket {
  addEventListener(type: 'message', listener: (e: { data: unknown }) => void): void;
}
declare const Element: new () => PageElement;
declare function requestAnimationFrame(callback: (time: number) => void): number;
declare class MutationObserver {
  constructor(callback: (records: Array<{ target: PageNode }>) => void);
  observe(target: PageElement, options: { subtree: boolean; childList: boolean; characterData: boolean }): void;
  disconnect(): void;
}
declare class MessageChannel {
  port1: { onmessage: (() => void) | null };
  port2: { postMessage(message: unknown): void };
}
declare class PerformanceObserver {
  static readonly supportedEntryTypes: readonly string[];
  constructor(callback: (list: { getEntries(): PageEntry[] }) => void);
  observe(options: { type: string; buffered: boolean }): void;
  takeRecords(): PageEntry[];
  disconnect(): void;
}

export interface ProbeCell {
  /** The price cell's data-testid: `price-<eventId>-<lineId>-<side>`. */
  id: string;
  text: string;
  /** performance.timeOrigin + performance.now() when the MutationObserver saw the new text (wall-clock ms). */
  domAt: number;
  /** Same clock, when the first task after that frame ran: the frame holding the change was committed by then. */
  paintAt: number;
}

export interface ProbeResult {
  cells: ProbeCell[];
  /** Durations (ms) of `longtask` entries (tasks of 50 ms or more) that started in the window. */
  longTasks: number[];
  /** Durations (ms) of `long-animation-frame` entries (frames of 50 ms or more) in the window; null if unsupported. */
  longFrames: number[] | null;
  /** Longest gap between consecutive animation frames in the window, ms. */
  longestFrameGap: number;
  frames: number;
  /** Date.now() - (timeOrigin + now()) in the page: how far the page's two wall clocks disagree. */
  clockSkew: number;
  /** The `onOdds` pushes the page received in the window: [arrival (wall ms), raw bridge message]. */
  pushes: Array<[number, string]>;
  /** How many `onAlert` pushes (price, drop, max_win, settlement alerts) the page received in the window. */
  alerts: number;
  /** The same by the alert's kind. */
  alertKinds: Record<string, number>;
  /**
   * Drop alerts first seen in the window (a drop episode's first push; its updates keep its number), by event id:
   * the episodes that opened in the window.
   */
  dropEpisodes: number[];
}

/** Where the page's wire tap keeps bridge messages (set up by installWireTap, switched on by startProbe). */
interface WireState {
  on: boolean;
  /** [performance.timeOrigin + now() when the page dispatched the message, its raw text] for every `onOdds` push. */
  pushes: Array<[number, string]>;
  alerts: number;
  alertKinds: Record<string, number>;
  /** Every alert number seen since the page loaded (also outside a window), so an episode's update is not new. */
  seenIds: Set<number>;
  /** The event of each drop alert first seen while on. */
  dropEpisodes: number[];
}

/**
 * Init script, before the app's own code: every WebSocket the page opens gets a first `message` listener that keeps
 * `onOdds` pushes with their arrival time (no parsing in the page: that waits for Node). Registered in the
 * constructor, it runs before the app's own `onmessage`, so the time is when the app's handler starts.
 */
export function installWireTap(): void {
  const wire: WireState = { on: false, pushes: [], alerts: 0, alertKinds: {}, seenIds: new Set(), dropEpisodes: [] };
  /** Notes an alert push's number: a drop alert never seen before, while on, is an episode that opened. */
  const noteAlert = (id: number, kind: string, eventId: number) => {
    if (wire.seenIds.has(id)) return;
    wire.seenIds.add(id);
    if (wire.on && kind === 'drop') wire.dropEpisodes.push(eventId);
  };
  const ALERT_HEAD = /"event":"onAlert","payload":\{"id":(\d+),"at":\d+,"kind":"([^"]*)","eventId":(null|\d+)/g;
  (globalThis as unknown as { __wire: WireState }).__wire = wire;
  const Native = window.WebSocket;
  window.WebSocket = class extends (Native as unknown as new (url: string) => PageSocket) {
    constructor(url: string) {
      super(url);
      this.addEventListener('message', (e) => {
        if (typeof e.data !== 'string') return;
        if (e.data.includes('"event":"onAlert"'))
          for (const m of e.data.matchAll(ALERT_HEAD)) noteAlert(Number(m[1]), m[2]!, Number(m[3]));
        if (!wire.on) return;
        const at = performance.timeOrigin + performance.now();
        if (e.data.startsWith('{"type":"push","event":"onOdds"')) wire.pushes.push([at, e.data]);
        else if (e.data.startsWith('{"type":"push","event":"onAlert"')) {
          wire.alerts++;
          const kind = /"kind":"([^"]*)"/.exec(e.data)?.[1] ?? '?';
          wire.alertKinds[kind] = (wire.alertKinds[kind] ?? 0) + 1;
        } else if (e.data.startsWith('{"type":"pushes"')) {
          // One frame with several pushes (the bridge sends a turn's pushes together): kept whole when it has odds;
          // its alerts counted by their kind (an alert's payload begins {"id":…,"at":…,"kind":…}).
          if (e.data.includes('"event":"onOdds"')) wire.pushes.push([at, e.data]);
          for (const m of e.data.matchAll(/"event":"onAlert","payload":\{"id":\d+,"at":\d+,"kind":"([^"]*)"/g)) {
            wire.alerts++;
            wire.alertKinds[m[1]!] = (wire.alertKinds[m[1]!] ?? 0) + 1;
          }
        }
      });
    }
  } as unknown as typeof window.WebSocket;
}

interface ProbeState {
  cells: ProbeCell[];
  stop: () => void;
  longTasks: number[];
  longFrames: number[] | null;
  longestFrameGap: number;
  frames: number;
  from: number;
}

/** Starts recording: price cell text changes, long tasks and long animation frames, and the frame cadence. */
export function startProbe(): void {
  const wall = () => performance.timeOrigin + performance.now();
  const state: ProbeState = {
    cells: [],
    stop: () => undefined,
    longTasks: [],
    longFrames: null,
    longestFrameGap: 0,
    frames: 0,
    from: performance.now(),
  };
  (window as unknown as { __probe: ProbeState }).__probe = state;
  const wire = (window as unknown as { __wire?: WireState }).__wire;
  if (wire) wire.on = true;

  const last = new Map<string, string>();
  const seenOf = (cell: PageElement): string => (cell.textContent ?? '').replace(/[▲▼]/g, '').trim();
  for (const cell of document.querySelectorAll('[data-testid^="price-"]'))
    last.set(cell.getAttribute('data-testid') ?? '', seenOf(cell));

  // One post per frame, not per mutation: its handler runs as the first task after the frame's rendering work.
  const channel = new MessageChannel();
  let awaitingPaint: ProbeCell[] = [];
  channel.port1.onmessage = () => {
    const at = wall();
    for (const c of awaitingPaint) c.paintAt = at;
    awaitingPaint = [];
  };

  const observer = new MutationObserver((records) => {
    const at = wall();
    const touched = new Set<PageElement>();
    for (const r of records) {
      const el = r.target instanceof Element ? r.target : r.target.parentElement;
      const cell = el?.closest('[data-testid^="price-"]');
      if (cell) touched.add(cell);
    }
    for (const cell of touched) {
      const id = cell.getAttribute('data-testid') ?? '';
      const text = seenOf(cell);
      if (last.get(id) === text) continue; // the arrow or flash changed, not the price
      last.set(id, text);
      const c: ProbeCell = { id, text, domAt: at, paintAt: NaN };
      state.cells.push(c);
      if (!awaitingPaint.length) channel.port2.postMessage(0);
      awaitingPaint.push(c);
    }
  });
  const grid = document.querySelector('[data-testid="watch-grid"]');
  if (!grid) throw new Error('no watch grid on the page');
  observer.observe(grid, { subtree: true, childList: true, characterData: true });

  const observers: PerformanceObserver[] = [];
  const watch = (type: string, into: number[]) => {
    const po = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (e.startTime >= state.from) into.push(e.duration);
    });
    po.observe({ type, buffered: true });
    observers.push(po);
  };
  watch('longtask', state.longTasks);
  if (PerformanceObserver.supportedEntryTypes.includes('long-animation-frame')) {
    state.longFrames = [];
    watch('long-animation-frame', state.longFrames);
  }

  let running = true;
  let prev = 0;
  const frame = (t: number) => {
    if (!running) return;
    if (prev) state.longestFrameGap = Math.max(state.longestFrameGap, t - prev);
    prev = t;
    state.frames++;
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);

  state.stop = () => {
    running = false;
    if (wire) wire.on = false;
    observer.disconnect();
    for (const po of observers) {
      for (const e of po.takeRecords())
        if (e.startTime >= state.from)
          (e.entryType === 'longtask' ? state.longTasks : state.longFrames)?.push(e.duration);
      po.disconnect();
    }
  };
}

/** Stops recording and hands back what was seen. */
export function stopProbe(): ProbeResult {
  const state = (window as unknown as { __probe: ProbeState }).__probe;
  state.stop();
  const wire = (window as unknown as { __wire?: WireState }).__wire;
  const pushes = wire?.pushes ?? [];
  const alerts = wire?.alerts ?? 0;
  const alertKinds = wire?.alertKinds ?? {};
  const dropEpisodes = wire?.dropEpisodes ?? [];
  // Handed back, then let go: what the probe kept must not count as the app's heap in the memory soak.
  if (wire) {
    wire.pushes = [];
    wire.alerts = 0;
    wire.alertKinds = {};
    wire.dropEpisodes = [];
  }
  delete (window as unknown as { __probe?: ProbeState }).__probe;
  return {
    cells: state.cells,
    longTasks: state.longTasks,
    longFrames: state.longFrames,
    longestFrameGap: state.longestFrameGap,
    frames: state.frames,
    clockSkew: Date.now() - (performance.timeOrigin + performance.now()),
    pushes,
    alerts,
    alertKinds,
    dropEpisodes,
  };
}
