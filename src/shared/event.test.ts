import { describe, expect, it } from 'vitest';
import { DisposableStore, Emitter, toDisposable } from './event';
import { AppErrorException, errorMessage } from './errors';

describe('Emitter', () => {
  it('fires to every listener with the arguments, and stops for one that unsubscribes (by call or by dispose)', () => {
    const e = new Emitter<[number, string]>();
    const a: string[] = [];
    const b: string[] = [];
    const offA = e.event((n, s) => a.push(`${n}${s}`));
    const offB = e.event((n, s) => b.push(`${n}${s}`));
    e.fire(1, 'x');
    offA();
    e.fire(2, 'y');
    offB.dispose();
    e.fire(3, 'z');
    expect(a).toEqual(['1x']);
    expect(b).toEqual(['1x', '2y']);
    expect(e.size).toBe(0);
  });

  it('a listener that throws does not stop the others, and its error goes to the one handler with the name', () => {
    const errors: string[] = [];
    const e = new Emitter<[]>({
      name: 'the governor',
      onListenerError: (err, name) => errors.push(`${name}: ${errorMessage(err)}`),
    });
    let ran = 0;
    e.event(() => {
      throw new Error('boom');
    });
    e.event(() => ran++);
    e.fire();
    expect(ran).toBe(1);
    expect(errors).toEqual(['the governor: boom']);
  });

  it('a listener added during a fire hears the next event, not this one; one removed during a fire still hears it', () => {
    const e = new Emitter<[number]>();
    const heard: string[] = [];
    let offLate: (() => void) | undefined;
    const offFirst = e.event((n) => {
      heard.push(`first ${n}`);
      if (!offLate) offLate = e.event((m) => heard.push(`late ${m}`));
      offSecond();
    });
    const offSecond = e.event((n) => heard.push(`second ${n}`));
    e.fire(1);
    e.fire(2);
    offFirst();
    expect(heard).toEqual(['first 1', 'second 1', 'first 2', 'late 2']);
  });

  it('after dispose, nothing fires and a new subscription is inert', () => {
    const e = new Emitter<[number]>();
    const heard: number[] = [];
    e.event((n) => heard.push(n));
    e.dispose();
    e.event((n) => heard.push(n * 10));
    e.fire(1);
    expect(heard).toEqual([]);
    expect(e.size).toBe(0);
  });
});

describe('DisposableStore and toDisposable', () => {
  it('ends each held disposable once, in order, and ends at once one added after it was disposed', () => {
    const ended: string[] = [];
    const store = new DisposableStore();
    store.add(() => ended.push('a'));
    store.add(toDisposable(() => ended.push('b')));
    store.dispose();
    store.dispose();
    store.add(() => ended.push('c'));
    expect(ended).toEqual(['a', 'b', 'c']);
  });

  it('an unsubscribe called twice runs its clean-up once', () => {
    let n = 0;
    const off = toDisposable(() => n++);
    off();
    off.dispose();
    expect(n).toBe(1);
  });
});

describe('errorMessage', () => {
  it('gives the words of anything thrown', () => {
    expect(errorMessage(new Error('disk full'))).toBe('disk full');
    expect(errorMessage(new AppErrorException({ kind: 'network', message: 'offline' }))).toBe('offline');
    expect(errorMessage({ kind: 'network', message: 'slow' })).toBe('slow');
    expect(errorMessage('plain')).toBe('plain');
    expect(errorMessage(42)).toBe('42');
  });
});
