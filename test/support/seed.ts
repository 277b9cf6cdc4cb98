// Seeded randomness for tests: a test that draws random numbers (kill moments, orders, sizes) takes them from a
// seeded generator, never from Math.random, and says its seed, so a failure can be replayed with
// ODDSDESK_TEST_SEED=<seed>. Without the variable each run draws a fresh seed (the crash tests keep exploring new
// kill moments), printed when the test starts and again if it fails.
import { randomInt } from 'node:crypto';
import { onTestFailed } from 'vitest';
import { Prng } from '../../src/sim/prng';

/** The seed from ODDSDESK_TEST_SEED (an integer), or a fresh random one. */
export function testSeed(): number {
  const fromEnv = process.env['ODDSDESK_TEST_SEED'];
  if (fromEnv !== undefined && fromEnv.trim() !== '') {
    const n = Number(fromEnv);
    if (!Number.isInteger(n) || n < 0 || n > 0xffffffff)
      throw new Error(`ODDSDESK_TEST_SEED must be an integer in [0, 2^32), got ${fromEnv}`);
    return n;
  }
  return randomInt(0, 0x7fffffff);
}

/**
 * For use inside a test: picks the seed, prints it (with `what`, e.g. the soak size) and registers a failure hook
 * that prints the replay line again next to the error. Returns the generator.
 */
export function seededTest(name: string, what = ''): { seed: number; prng: Prng; replay: string } {
  const seed = testSeed();
  const replay = `${name}: seed ${seed} (replay with ODDSDESK_TEST_SEED=${seed})`;
  console.log(what ? `${replay}; ${what}` : replay);
  onTestFailed(() => console.error(`FAILED ${replay}`));
  return { seed, prng: new Prng(seed), replay };
}
