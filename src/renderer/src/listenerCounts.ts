// Test-only (issue 37, a day open): how many listeners and subscriptions the page holds, so the page soak
// (bench/pageSoak.ts) and test/e2e/page-soak.spec.ts can show that opening and closing the event detail, the palette
// and a second window leaves none behind. A page that sets `window.__listenerCounts = null` before it loads (an init
// script) finds there a function returning the counts by source; otherwise nothing is counted and nothing wrapped.
// Counts only: no state, no key, nothing of the trader's.

import type { StateCreator, StoreApi } from 'zustand';

type Read = () => number;

const hook = globalThis as { __listenerCounts?: (() => Record<string, number>) | null };
const wanted = '__listenerCounts' in hook;
const sources = new Map<string, Read>();

if (wanted) hook.__listenerCounts = () => Object.fromEntries([...sources].map(([name, read]) => [name, read()]));

/** Adds a source of counts (its current number of listeners), when the page asked for counts. */
export function countListeners(name: string, read: Read): void {
  if (wanted) sources.set(name, read);
}

/**
 * A zustand initializer whose store has its subscribers counted (zustand keeps them in a closure), when the page asked
 * for counts: the store's `subscribe` is wrapped before anything subscribes (React's hooks read this very object).
 */
export function withCountedSubscribers<T>(name: string, init: StateCreator<T, [], []>): StateCreator<T, [], []> {
  return (set, get, store) => {
    countSubscribers(name, store);
    return init(set, get, store);
  };
}

function countSubscribers<T>(name: string, store: StoreApi<T>): void {
  if (!wanted) return;
  const subscribe = store.subscribe;
  const live = new Set<object>();
  store.subscribe = (listener) => {
    const off = subscribe(listener);
    const token = {};
    live.add(token);
    return () => {
      live.delete(token);
      off();
    };
  };
  sources.set(name, () => live.size);
}
