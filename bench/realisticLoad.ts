// The tick-to-screen bench's realistic load, beside its stress load (2,000 market moves a second in steps of a few
// percent): what a desk watching 200 in-play matches sees on an ordinary afternoon. Driven from the bench through the
// simulator's script (sim.script.setMarket, emitted at once on the event's stream like any move of the world):
//   - UPDATES_PER_S market moves a second over the watched events, each a step of a fraction of a percent on one side
//     (the other sides move the other way, so the book keeps its margin);
//   - every DROP_EVERY_S seconds a drop: one side of a match's main moneyline shortens by DROP_PCT (a goal, a red
//     card), past the default drop rule (5 % of the fair price), so the default rules raise a few alerts a minute.
// The world's own motion (scores, max_win changes, settlements) goes on as under the stress load.
import type { Prices } from '../src/shared/api';
import type { Simulator } from '../src/sim';
import { Prng } from '../src/sim/prng';

export const REALISTIC = {
  UPDATES_PER_S: 200,
  /** Standard deviation of one step, as a fraction of the price (0.3 %). */
  STEP: 0.003,
  DROP_EVERY_S: 15,
  DROP_PCT: 10,
};

const TICK_MS = 5;

const round3 = (x: number) => Math.max(1.01, Math.round(x * 1000) / 1000);

/** One side moved by `factor`, the others the other way, so the book's overround stays about where it was. */
function moved(prices: Prices, side: keyof Prices, factor: number): Prices {
  const sides = Object.keys(prices) as Array<keyof Prices>;
  const others = Math.max(1, sides.length - 1);
  const out: Prices = {};
  for (const s of sides) out[s] = round3(prices[s]! * (s === side ? factor : factor ** (-1 / others)));
  return out;
}

/** Starts the load on `ids` (watched, with streams open); returns the stop. */
export function startRealisticLoad(sim: Simulator, ids: readonly number[], seed = 7): () => void {
  const rng = new Prng(seed);
  const started = Date.now();
  let done = 0;
  let drops = 0;
  const timer = setInterval(() => {
    const elapsed = Date.now() - started;
    const due = Math.floor((elapsed * REALISTIC.UPDATES_PER_S) / 1000);
    for (let misses = 0; done < due && misses < 20;) {
      const eventId = rng.pick(ids);
      const priced =
        sim.truth.event(eventId)?.markets.filter((m) => m.prices && Object.keys(m.prices).length > 1) ?? [];
      if (!priced.length) {
        misses++;
        continue;
      }
      const m = rng.pick(priced);
      const side = rng.pick(Object.keys(m.prices!) as Array<keyof Prices>);
      if (sim.script.setMarket(eventId, m.line_id, moved(m.prices!, side, Math.exp(rng.normal() * REALISTIC.STEP))))
        done++;
      else misses++;
    }
    done = Math.max(done, due - REALISTIC.UPDATES_PER_S); // never owe more than a second after a stall
    if (elapsed >= (drops + 1) * REALISTIC.DROP_EVERY_S * 1000) {
      drops++;
      // A side priced 1.5 or longer: shortening it by DROP_PCT raises its probability by well over a point.
      for (let tries = 0; tries < 50; tries++) {
        const eventId = rng.pick(ids);
        const ml = sim.truth
          .event(eventId)
          ?.markets.find((m) => m.market === 'moneyline' && m.period === 0 && m.prices);
        const side = ml && (Object.keys(ml.prices!) as Array<keyof Prices>).find((s) => ml.prices![s]! >= 1.5);
        if (!ml || !side) continue;
        if (sim.script.setMarket(eventId, ml.line_id, moved(ml.prices!, side, 1 - REALISTIC.DROP_PCT / 100))) break;
      }
    }
  }, TICK_MS);
  return () => clearInterval(timer);
}
