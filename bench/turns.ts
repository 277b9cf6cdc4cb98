// How long a chunked run keeps the host's event loop waiting: a yieldTurn for the run's options that notes the
// longest stretch between two turns (the scoreboard and rule lab benches).
export interface TimedTurns {
  yieldTurn: () => Promise<void>;
  /** Starts the clock (the run begins); the run's end closes its last stretch with longest(). */
  start(): void;
  longest(): number;
}

export function timedTurns(): TimedTurns {
  let last = performance.now();
  let longest = 0;
  return {
    yieldTurn: async () => {
      longest = Math.max(longest, performance.now() - last);
      await new Promise<void>((r) => setImmediate(r));
      last = performance.now();
    },
    start: () => void (last = performance.now()),
    longest: () => (longest = Math.max(longest, performance.now() - last)),
  };
}
