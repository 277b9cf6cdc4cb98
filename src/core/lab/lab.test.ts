// The rule lab on synthetic books where the right answer is known (test/support/labBook.ts): drops that carry
// information put their rule first, with a lead that holds on the later part; drops that are noise give no rule a
// significant lead; the rule is chosen on the earlier part alone; a run can be cancelled and reports progress.
import { describe, expect, it } from 'vitest';
import { labRuleKey, type LabRule, type RuleLabResult } from '../../shared/ruleLab';
import { book, bookSource, type BookKind } from '../../../test/support/labBook';
import { LabCancelled, runRuleLab } from './run';

const base: LabRule = { dropPct: 5, dropWindowMinutes: 15, minProbPts: 1, phase: 'both', sports: [], markets: [] };
const rules = [2, 3, 4, 5, 6, 8, 10, 12].map((dropPct) => ({ ...base, dropPct }));
const key = (dropPct: number) => labRuleKey({ ...base, dropPct });
const DAYS = 30;

async function lab(kindOf: (day: number) => BookKind, seed = 2, candidates = rules): Promise<RuleLabResult> {
  return runRuleLab(bookSource(book(DAYS, 12, kindOf, seed)), { rules: candidates, current: base, model: 'EM' });
}
const score = (r: RuleLabResult, part: 'earlier' | 'later', dropPct: number) =>
  r[part].rules.find((x) => x.key === key(dropPct))!;
const ranked = (r: RuleLabResult, part: 'earlier' | 'later') =>
  [...r[part].rules].filter((x) => x.clv.mean !== null).sort((a, b) => b.clv.mean! - a.clv.mean!);

describe('rule lab on synthetic books', () => {
  it('a book whose big drops carry information: the 8% rule is chosen, and its lead over 5% holds on the later part', async () => {
    const r = await lab(() => 'informative');
    expect(r.rulesTried).toBe(8);
    expect(r.chosen).toBe(key(8));
    expect(ranked(r, 'earlier')[0]!.key).toBe(key(8));
    expect(ranked(r, 'later')[0]!.key).toBe(key(8));
    const later = score(r, 'later', 8);
    expect(later.clv.mean!).toBeGreaterThan(0);
    // (A small move's reversal is a drop of the other side: it alerts too, and loses the margin.)
    expect(later.beatRate.mean!).toBeGreaterThan(0.6);
    expect(later.beatRate.mean!).toBeGreaterThan(score(r, 'later', 5).beatRate.mean!);
    expect(later.vsCurrent!.significant).toBe(true);
    expect(later.vsCurrent!.clv.low!).toBeGreaterThan(0);
    expect(r.holdsLater).toBe(true);
    expect(r.sentence).toContain('significant');
    // Rules above the big moves alert less (on the other side's moves only); the current rule alerts more often.
    expect(score(r, 'later', 12).alerts).toBeLessThan(later.alerts);
    expect(score(r, 'later', 5).perDay).toBeGreaterThan(later.perDay);
  });

  it('a book whose drops are noise: the 8% rule is no better than the current one, and the choice does not hold', async () => {
    const r = await lab(() => 'noise');
    for (const part of ['earlier', 'later'] as const) {
      const eight = score(r, part, 8);
      expect(eight.alerts, part).toBeGreaterThan(20);
      expect(eight.vsCurrent!.significant, part).toBe(false);
      expect(eight.vsCurrent!.clv.low!, part).toBeLessThan(0);
      expect(eight.vsCurrent!.clv.high!, part).toBeGreaterThan(0);
    }
    if (r.chosen !== r.current)
      expect(r.later.rules.find((x) => x.key === r.chosen)!.vsCurrent!.significant).toBe(false);
    expect(r.holdsLater).toBe(false);
    expect(r.sentence).toMatch(/not significant|keep it/);
  });

  it('over ten books of each kind: noise is called significant about as rarely as a 95% interval allows, information always', async () => {
    const significant = async (kind: BookKind) => {
      let n = 0;
      for (let seed = 2; seed <= 11; seed++) {
        const r = await lab(() => kind, seed, [base, { ...base, dropPct: 8 }]);
        for (const part of [r.earlier, r.later]) if (part.rules[1]!.vsCurrent!.significant) n++;
      }
      return n;
    };
    // 20 intervals: one in twenty excludes 0 by chance alone.
    expect(await significant('noise')).toBeLessThanOrEqual(2);
    expect(await significant('informative')).toBe(20);
  }, 60_000);

  it('chooses on the earlier part alone: a later part that turns the book round changes nothing of the choice', async () => {
    const split = Math.floor((DAYS * 2) / 3);
    const a = await lab(() => 'informative');
    const b = await lab((day) => (day < split ? 'informative' : 'reversed'));
    expect(b.splitAt).toBe(a.splitAt);
    expect(b.earlier).toEqual(a.earlier);
    expect(b.chosen).toBe(a.chosen);
    // ... while the later part, which the choice never saw, says it does not hold.
    expect(b.later).not.toEqual(a.later);
    expect(b.holdsLater).toBe(false);
    expect(ranked(b, 'later')[0]!.key).not.toBe(key(8));
  });

  it('reports progress in matches and stops when cancelled', async () => {
    const events = book(10, 12, () => 'noise');
    const seen: number[] = [];
    const done = await runRuleLab(bookSource(events), {
      rules,
      current: base,
      model: 'EM',
      sliceMs: 0,
      onProgress: (p) => seen.push(p.done),
    });
    expect(seen[0]).toBe(0);
    expect(seen.at(-1)).toBe(events.length);
    expect(done.earlier.events + done.later.events).toBe(events.length);
    const stop = new AbortController();
    const run = runRuleLab(bookSource(events), {
      rules,
      current: base,
      model: 'EM',
      sliceMs: 0,
      signal: stop.signal,
      onProgress: (p) => p.done >= 3 && stop.abort(),
    });
    await expect(run).rejects.toBeInstanceOf(LabCancelled);
  });
});
