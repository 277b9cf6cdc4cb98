// A window's address says what it shows alone; the page never shows something made up from it.
import { describe, expect, it } from 'vitest';
import {
  parseWindowHash,
  sameWindowTarget,
  windowHash,
  windowTitle,
  WINDOW_VIEWS,
  type WindowTarget,
} from './windowRoute';

describe('the address of a window of its own', () => {
  it('names every view and one event, and reads back what it named', () => {
    const targets: WindowTarget[] = [...WINDOW_VIEWS.map((view) => ({ view })), { view: 'event', eventId: 1600007 }];
    for (const t of targets) expect(parseWindowHash(`#${windowHash(t)}`)).toEqual(t);
    expect(windowHash({ view: 'movers' })).toBe('view=movers');
    expect(windowHash({ view: 'event', eventId: 123 })).toBe('event=123');
  });

  it("ignores browser mode's token beside it, before or after", () => {
    expect(parseWindowHash('#token=abc123&view=alerts')).toEqual({ view: 'alerts' });
    expect(parseWindowHash('#event=42&token=abc123')).toEqual({ view: 'event', eventId: 42 });
  });

  it('is the whole app without one, or with one that names nothing it knows', () => {
    for (const hash of [
      '',
      '#',
      '#token=abc123',
      '#view=',
      '#view=elsewhere',
      '#view=Movers',
      '#event=',
      '#event=12x',
      '#event=-1',
      '#event=1.5',
      '#event=99999999999999999',
    ]) {
      expect(parseWindowHash(hash), hash).toBeNull();
    }
  });

  it('titles the window in words, and knows the same target opened twice', () => {
    expect(windowTitle({ view: 'movers' })).toBe('Top movers');
    expect(windowTitle({ view: 'event', eventId: 7 })).toBe('Event 7');
    expect(sameWindowTarget({ view: 'event', eventId: 7 }, { view: 'event', eventId: 7 })).toBe(true);
    expect(sameWindowTarget({ view: 'event', eventId: 7 }, { view: 'event', eventId: 8 })).toBe(false);
    expect(sameWindowTarget({ view: 'alerts' }, { view: 'settlements' })).toBe(false);
  });
});
