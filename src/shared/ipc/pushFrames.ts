// One message per turn for the desktop's pushes, as the browser bridge does it (src/core/bridge/server.ts): the
// pushes the core makes in one turn of the main process's event loop (a monitor flush's odds batch, the alerts it
// fired, a status) go to each window as one IPC message on PUSH_CHANNEL, `{ pushes: [...] }`, in their order; a
// lone push goes as before, `{ event, payload }`. Every IPC message is a task in the page and a structured clone,
// and a busy minute fires hundreds of alerts a second: one message each kept the page's queue full.
// Shared by the main side (the batcher) and the preload (unpackPushes), which is why it is plain TypeScript.

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
  if (Array.isArray(m.pushes)) return (m.pushes as unknown[]).filter((p): p is PushItem => typeof p === 'object' && p !== null && typeof (p as PushItem).event === 'string');
  return typeof m.event === 'string' ? [{ event: m.event, payload: m.payload }] : [];
}

/**
 * Collects pushes and hands them to `send` once per turn (`schedule` runs the flush at the turn's end: setImmediate
 * in the main process). `flush()` sends what is queued now.
 */
export function createPushBatcher(send: (message: PushMessage) => void, schedule: (flush: () => void) => void): { push(event: string, payload: unknown): void; flush(): void } {
  let queued: PushItem[] = [];
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (queued.length === 0) return;
    const items = queued;
    queued = [];
    send(items.length === 1 ? items[0]! : { pushes: items });
  };
  return {
    push(event, payload) {
      queued.push({ event, payload });
      if (!scheduled) {
        scheduled = true;
        schedule(flush);
      }
    },
    flush,
  };
}
