/**
 * One event kit for every registry of listeners in the app (after VS Code's `base/common/event`): an `Emitter` that
 * fires to its listeners, subscriptions that are both a function to call and a `Disposable`, and a `DisposableStore`
 * to end many at once.
 *
 * One policy for a listener that throws: the others still run, and the error goes to the emitter's `onListenerError`
 * (by default `console.error` with the emitter's name). Listeners added or removed while an event fires take effect
 * from the next event: each fire runs over the listeners as they were when it began.
 */
import { errorMessage } from './errors';

export interface Disposable {
  dispose(): void;
}

/** What `subscribe` returns: call it, or `dispose()` it, to stop listening. Calling it twice is harmless. */
export type Unsubscribe = (() => void) & Disposable;

/** Turns a clean-up function into an `Unsubscribe` that runs it once at most. */
export function toDisposable(fn: () => void): Unsubscribe {
  let done = false;
  const run = (): void => {
    if (done) return;
    done = true;
    fn();
  };
  return Object.assign(run, { dispose: run });
}

/** A way to subscribe: `Event<[next, previous]>` takes `(next, previous) => void`. */
export type Event<A extends unknown[]> = (listener: (...args: A) => void) => Unsubscribe;

export interface EmitterOptions {
  /** A name for the error report when a listener throws. */
  name?: string;
  /** Where a listener's error goes (the other listeners still run). */
  onListenerError?: (error: unknown, name: string) => void;
}

function reportListenerError(error: unknown, name: string): void {
  console.error(`a listener of ${name} failed: ${errorMessage(error)}`);
}

export class Emitter<A extends unknown[]> {
  private readonly listeners = new Set<(...args: A) => void>();
  private readonly name: string;
  private readonly onListenerError: (error: unknown, name: string) => void;
  private disposed = false;

  constructor(options: EmitterOptions = {}) {
    this.name = options.name ?? 'an event';
    this.onListenerError = options.onListenerError ?? reportListenerError;
  }

  /** Subscribe a listener; the same function added twice is one subscription. */
  readonly event: Event<A> = (listener) => {
    if (this.disposed) return toDisposable(() => {});
    this.listeners.add(listener);
    return toDisposable(() => void this.listeners.delete(listener));
  };

  /** Runs every listener subscribed when the fire began; one that throws does not stop the others. */
  fire(...args: A): void {
    if (this.listeners.size === 0) return;
    for (const listener of [...this.listeners]) {
      try {
        listener(...args);
      } catch (e) {
        this.onListenerError(e, this.name);
      }
    }
  }

  /** How many listeners are subscribed (the page soak counts these). */
  get size(): number {
    return this.listeners.size;
  }

  /** Drops every listener; later subscriptions are refused silently and fires do nothing. */
  dispose(): void {
    this.disposed = true;
    this.listeners.clear();
  }
}

/** Holds disposables to end together (a component's or a service's subscriptions). */
export class DisposableStore implements Disposable {
  private readonly items = new Set<Disposable>();
  private disposed = false;

  /** Adds a disposable (or a clean-up function); added after `dispose`, it is ended at once. */
  add<T extends Disposable | (() => void)>(item: T): T {
    const d: Disposable = typeof item === 'function' ? toDisposable(item as () => void) : item;
    if (this.disposed) d.dispose();
    else this.items.add(d);
    return item;
  }

  /** Ends every held disposable, each once, in the order added; one that throws does not stop the others. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    const errors: unknown[] = [];
    for (const d of this.items) {
      try {
        d.dispose();
      } catch (e) {
        errors.push(e);
      }
    }
    this.items.clear();
    if (errors.length) throw errors[0];
  }
}
