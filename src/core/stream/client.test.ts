// The stream client's rules against a scripted SSE server, on the manual clock: a replayed id is not applied twice,
// unknown event names are counted and ignored, prices null marks a market offline, `end` closes for good; the backoff
// starts again from the bottom only after a connection held for a minute; the service's `retry:` is a floor (a
// hostile one is bounded); and opens per event are capped in a rolling hour, the stream resting as 'failing'. A line
// or message over the size cap drops the connection with its error, and the stream reconnects under the backoff.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeEndless } from '../../../test/support/localServer';
import { createManualClock, type ManualClock } from '../../../test/support/manualClock';
import { market, snapshot } from '../../../test/support/streamFixtures';
import { createApiClient } from '../api';
import { MAX_STREAM_MESSAGE_BYTES } from '../../shared/api';
import { createProxyFetch } from '../net/proxyFetch';
import { createMessageSizeGuard, createStreamClient, type StreamClient, type StreamState } from './client';

const msg = (id: number, event: string, data: unknown) =>
  `id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
const HOUR = 3_600_000;
/** No watchdog in these tests: nothing here is about silence. */
const NO_WATCHDOG = 1e9;

const closers: Array<() => void> = [];
afterEach(() => closers.splice(0).forEach((c) => c()));

interface Seen {
  key: string | undefined;
  lastEventId: string | undefined;
  /** The manual clock when the request arrived. */
  at: number;
  res: ServerResponse;
}

async function scriptedServer(
  clock: ManualClock,
  script: (n: number, req: IncomingMessage, res: ServerResponse) => void,
) {
  let n = 0;
  const seen: Seen[] = [];
  const srv = createServer((req, res) => {
    seen.push({
      key: req.headers['x-api-key'] as string | undefined,
      lastEventId: req.headers['last-event-id'] as string | undefined,
      at: clock.now(),
      res,
    });
    res.writeHead(200, { 'Content-Type': 'text/event-stream' });
    script(++n, req, res);
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  closers.push(() => {
    srv.closeAllConnections();
    srv.close();
  });
  return { url: `http://127.0.0.1:${(srv.address() as AddressInfo).port}`, seen };
}

/** Waits (real time) for real I/O the manual clock cannot move: a request to arrive, a drop to be noticed. */
const until = async (check: () => boolean, ms = 3000) => {
  const end = Date.now() + ms;
  while (!check() && Date.now() < end) await new Promise((r) => setTimeout(r, 2));
  return check();
};

/**
 * Every rule holds whichever way the body arrives: the hosts' fetch (createProxyFetch) hands the stream client the
 * socket's chunks as a raw body; any other fetch (Node's own here) gives a web stream the client reads instead.
 */
const TRANSPORTS: Array<[string, typeof fetch | undefined]> = [
  ["the hosts' fetch (a raw body)", createProxyFetch({})],
  ["Node's fetch (a web stream)", undefined],
];
let transport: typeof fetch | undefined;

function setup(clock: ManualClock, url: string, extra: Partial<Parameters<typeof createStreamClient>[0]> = {}) {
  const api = createApiClient({
    baseUrl: url,
    keyProvider: () => 'unit-test-key-1',
    clock,
    ...(transport ? { fetch: transport } : {}),
  });
  const streams = createStreamClient({ api, clock, pingIntervalMs: NO_WATCHDOG, random: () => 1, ...extra });
  closers.push(() => {
    streams.close();
    api.dispose();
  });
  return { api, streams };
}

/** The stream is waiting on its own timer (nothing in flight), so moving the clock is all that can happen next. */
const waiting = (streams: StreamClient, id = 7) => streams.state(id)?.retryAt !== undefined;

describe.each(TRANSPORTS)('over %s', (_name, fetchImpl) => {
  beforeEach(() => {
    transport = fetchImpl;
  });

  describe('stream client message rules', () => {
    it('applies each id once, ignores unknown events, keeps offline markets, and stops at end', async () => {
      const clock = createManualClock(Date.UTC(2026, 10, 22, 12));
      const { url, seen } = await scriptedServer(clock, (n, _req, res) => {
        if (n === 1) {
          res.end(
            msg(5, 'snapshot', snapshot) +
              msg(6, 'odds', { event_id: 7, ts: '2026-11-22T12:00:01', markets: [market(1, 2.0)] }) +
              msg(7, 'mystery', { hello: 1 }),
          );
        } else {
          res.end(
            // A replay that overlaps what was applied: id 6 must not be applied again.
            msg(6, 'odds', { event_id: 7, ts: '2026-11-22T12:00:01', markets: [market(1, 9.9)] }) +
              msg(8, 'odds', { event_id: 7, ts: '2026-11-22T12:00:02', markets: [market(2, null)] }) +
              msg(9, 'score', {
                event_id: 7,
                ts: '2026-11-22T12:00:03',
                live_status: 1,
                score_home: 1,
                score_away: 0,
              }) +
              msg(10, 'end', { event_id: 7, reason: 'settled' }),
          );
        }
      });
      const { streams } = setup(clock, url, { backoff: { baseMs: 10, maxMs: 50 } });
      const ends: string[] = [];
      streams.onEnd((_id, e) => ends.push(e.reason));
      streams.watch(7);
      expect(await until(() => waiting(streams))).toBe(true);
      await clock.advance(50);
      expect(await until(() => streams.state(7)?.status === 'ended')).toBe(true);

      const odds = streams.odds(7)!;
      expect(odds.markets.find((m) => m.line_id === 1)!.prices).toEqual({ home: 2.0, away: 2.1 });
      expect(odds.markets.find((m) => m.line_id === 2)!.prices).toBeNull();
      expect(odds).toMatchObject({ live_status: 1, score_home: 1, score_away: 0 });
      expect(streams.stats(7)).toMatchObject({ duplicates: 1, unknownEvents: 1, connections: 2, applied: 5 });
      expect(streams.state(7)).toMatchObject({ lastEventId: 10, endReason: 'settled' });
      expect(ends).toEqual(['settled']);
      expect(seen.map((s) => s.lastEventId)).toEqual([undefined, '6']);
      expect(seen.every((s) => s.key === 'unit-test-key-1')).toBe(true);
      // `end` means for good: time passing opens nothing more.
      await clock.advance(HOUR);
      expect(seen).toHaveLength(2);
    });
  });

  describe('streams that cannot storm', () => {
    it('starts the backoff from the bottom only after a connection held for 60 s', async () => {
      const clock = createManualClock(Date.UTC(2026, 10, 22, 12));
      const { url, seen } = await scriptedServer(clock, (_n, _req, res) => res.write(msg(1, 'snapshot', snapshot)));
      const { streams } = setup(clock, url, { backoff: { baseMs: 1000, maxMs: 64_000 } });
      streams.watch(7);

      const gaps: number[] = [];
      /** Keeps connection `n` up for `holdMs`, drops it, and returns the delay the client then plans. */
      const holdAndDrop = async (n: number, holdMs: number) => {
        expect(await until(() => seen.length === n && streams.state(7)?.status === 'live')).toBe(true);
        await clock.advance(holdMs);
        const droppedAt = clock.now();
        seen[n - 1]!.res.destroy();
        expect(await until(() => waiting(streams))).toBe(true);
        const retryAt = streams.state(7)!.retryAt!;
        gaps.push(retryAt - droppedAt);
        await clock.advance(retryAt - clock.now());
      };
      await holdAndDrop(1, 0); // snapshot, then dropped: 1 s
      await holdAndDrop(2, 0); // again: 2 s
      await holdAndDrop(3, 30_000); // up for 30 s, not yet healthy: 4 s
      await holdAndDrop(4, 59_999); // one ms short of healthy: 8 s
      await holdAndDrop(5, 60_000); // healthy for a minute: back to 1 s
      await holdAndDrop(6, 0); // and climbing again: 2 s
      expect(gaps).toEqual([1000, 2000, 4000, 8000, 1000, 2000]);
      // Each reconnect went out exactly when planned, not before.
      expect(await until(() => seen.length === 7)).toBe(true);
    });

    it("honours the service's retry: as a floor, split anywhere in the bytes, and bounds a hostile one", async () => {
      const clock = createManualClock(Date.UTC(2026, 10, 22, 12));
      const { url, seen } = await scriptedServer(clock, (n, _req, res) => {
        if (n === 1) {
          // The field arrives in pieces, with CRLF line ends.
          res.write('ret');
          setTimeout(() => res.write('ry: 50'), 5);
          setTimeout(() => res.write('00\r\n\r\n' + msg(1, 'snapshot', snapshot)), 10);
        } else if (n === 2) {
          res.write(`retry: 9999999999999\n\n${msg(1, 'snapshot', snapshot)}`);
        } else {
          res.write(`: no retry field this time\n\n${msg(1, 'snapshot', snapshot)}`);
        }
      });
      const { streams } = setup(clock, url, { backoff: { baseMs: 100, maxMs: 400 }, maxRetryFloorMs: 120_000 });
      streams.watch(7);
      const dropAndPlan = async (n: number) => {
        expect(await until(() => seen.length === n && streams.state(7)?.lastEventId === 1)).toBe(true);
        const droppedAt = clock.now();
        seen[n - 1]!.res.destroy();
        expect(await until(() => waiting(streams))).toBe(true);
        const gap = streams.state(7)!.retryAt! - droppedAt;
        await clock.advance(gap);
        return gap;
      };
      expect(await dropAndPlan(1)).toBe(5000); // the backoff alone would have said 100 ms
      expect(await dropAndPlan(2)).toBe(120_000); // bounded: a stream is never parked for ages
      // The floor is the last value the service sent: it still holds on a connection that sent none.
      expect(await dropAndPlan(3)).toBe(120_000);
    });

    it('caps opens per event in a rolling hour: over the cap it rests as failing, then tries again', async () => {
      const clock = createManualClock(Date.UTC(2026, 10, 22, 12));
      const start = clock.now();
      const { url, seen } = await scriptedServer(clock, (_n, _req, res) => res.end(msg(1, 'snapshot', snapshot)));
      const { api, streams } = setup(clock, url, {
        backoff: { baseMs: 1000, maxMs: 8000 },
        openCap: { max: 5, windowMs: HOUR },
      });
      const states: StreamState[] = [];
      streams.onState((s) => states.push(s));
      streams.watch(7);

      // Three hours of a stream that is dropped right after every snapshot.
      while (clock.now() < start + 3 * HOUR) {
        expect(await until(() => waiting(streams))).toBe(true);
        if (seen.length === 5 && clock.now() < start + HOUR) {
          // Used up: the stream says so, and neither a re-watch nor the quota count lets it past the cap.
          expect(streams.state(7)).toMatchObject({ status: 'failing', error: { kind: 'network' } });
          expect(streams.state(7)!.error!.message).toMatch(/keeps failing.*tries again in \d+ min/);
          expect(api.governor.state().quota.used).toBe(5);
          streams.unwatch(7);
          streams.watch(7);
          expect(streams.state(7)?.status).toBe('failing');
        }
        await clock.advance(Math.min(streams.state(7)!.retryAt!, start + 3 * HOUR) - clock.now());
      }

      const opens = seen.map((s) => s.at);
      for (const at of opens) expect(opens.filter((o) => o >= at && o < at + HOUR).length).toBeLessThanOrEqual(5);
      // It kept trying once the window let it: the cap is a pace, not a verdict.
      expect(opens.length).toBeGreaterThanOrEqual(13);
      expect(opens.some((o) => o > start + 2 * HOUR)).toBe(true);
      expect(states.some((s) => s.status === 'failing')).toBe(true);
      expect(states.filter((s) => s.status === 'failed')).toEqual([]);
    });
  });

  describe('the silence watchdog', () => {
    it('measures silence from the last byte, however many chunks came before it', async () => {
      const clock = createManualClock(Date.UTC(2026, 10, 22, 12));
      const { url, seen } = await scriptedServer(clock, (n, _req, res) => {
        if (n === 1) res.write(msg(1, 'snapshot', snapshot));
      });
      // The client reads its clock when bytes arrive (the silence starts again from then); with the manual clock
      // standing still nothing else reads it, so a read is how the test sees a comment arrive that changes no state.
      let reads = 0;
      const watched: ManualClock = { ...clock, now: () => (reads++, clock.now()) };
      const { streams } = setup(watched, url, { pingIntervalMs: 1_000, backoff: { baseMs: 60_000, maxMs: 60_000 } });
      streams.watch(7);
      expect(await until(() => streams.state(7)?.lastEventId === 1)).toBe(true);
      // A ping (a comment, no message) and an update each restart the silence: 1.5 s apart, never 2 s of quiet.
      await clock.advance(1_500);
      const readsBefore = reads;
      seen[0]!.res.write(': ping\n\n');
      expect(await until(() => reads > readsBefore)).toBe(true); // real I/O: the comment arrived
      await clock.advance(1_500);
      seen[0]!.res.write(msg(2, 'odds', { event_id: 7, ts: '2026-11-22T12:00:03', markets: [market(1, 1.95)] }));
      expect(await until(() => streams.state(7)?.lastEventId === 2)).toBe(true);
      await clock.advance(1_900);
      expect(streams.stats(7)).toMatchObject({ watchdogTrips: 0, connections: 1 });
      expect(streams.state(7)?.status).toBe('live');
      // 2 s after the last byte: dead, and the stream plans its reconnect.
      await clock.advance(100);
      expect(streams.stats(7)?.watchdogTrips).toBe(1);
      expect(streams.state(7)?.status).toBe('reconnecting');
    });
  });

  /** Writes `line` and then an endless run of `x` until the client drops it. */
  const endlessLine = (res: ServerResponse, line: string) =>
    writeEndless(res, line, 'x', { written: 0, closed: false });

  describe('lines and messages over the size cap', () => {
    it('cuts an endless line with its error while the server still writes it, and reconnects under the backoff', async () => {
      const clock = createManualClock(Date.UTC(2026, 10, 22, 12));
      let endless: { written: number; closed: boolean } | null = null;
      const { url, seen } = await scriptedServer(clock, (n, _req, res) => {
        if (n === 1)
          endless = endlessLine(res, msg(1, 'snapshot', snapshot) + 'event: odds\ndata: {"event_id": 7, "markets": ["');
        else res.write(msg(2, 'odds', { event_id: 7, ts: '2026-11-22T12:00:02', markets: [market(1, 2.2)] }));
      });
      const { streams } = setup(clock, url, { backoff: { baseMs: 2000, maxMs: 8000 } });
      streams.watch(7);

      expect(await until(() => waiting(streams), 10_000)).toBe(true);
      const dropped = streams.state(7)!;
      expect(dropped).toMatchObject({ status: 'reconnecting', lastEventId: 1, error: { kind: 'bad_payload' } });
      expect(dropped.error!.message).toBe(
        'The live odds stream of event 7 sent a line or message longer than 1 MiB; the connection was dropped and will be opened again.',
      );
      // The client dropped the connection itself, while the server was still writing the line.
      expect(await until(() => endless!.closed)).toBe(true);
      expect(endless!.written).toBeGreaterThan(MAX_STREAM_MESSAGE_BYTES);
      // The first step of the backoff, as for any dropped connection (random 1: the full step).
      expect(dropped.retryAt! - clock.now()).toBe(2000);
      expect(seen).toHaveLength(1);

      // The server behaves again: the stream resumes from the last id it applied and goes live, the error gone.
      await clock.advance(2000);
      expect(await until(() => streams.state(7)?.lastEventId === 2)).toBe(true);
      expect(seen.map((x) => x.lastEventId)).toEqual([undefined, '1']);
      expect(streams.state(7)).toMatchObject({ status: 'live' });
      expect(streams.state(7)!.error).toBeUndefined();
      expect(streams.odds(7)!.markets.find((m) => m.line_id === 1)!.prices).toEqual({ home: 2.2, away: 2.1 });
    });

    it('cuts a message whose short lines add up past the cap, but not a stream of pings', async () => {
      const clock = createManualClock(Date.UTC(2026, 10, 22, 12));
      const line = `data: ${'y'.repeat(1018)}\n`; // 1 KiB a line with its LF; 1024 of them pass the cap
      const { url, seen } = await scriptedServer(clock, (n, _req, res) => {
        if (n === 1) {
          // Pings alone, 2 MiB of them without a blank line: the parser keeps none of them.
          res.write(msg(1, 'snapshot', snapshot) + ': ping\n'.repeat((2 * MAX_STREAM_MESSAGE_BYTES) / 7));
          res.write(
            msg(2, 'score', { event_id: 7, ts: '2026-11-22T12:00:03', live_status: 1, score_home: 1, score_away: 0 }),
          );
          res.write('event: odds\n' + line.repeat(1024));
        }
      });
      const { streams } = setup(clock, url, { backoff: { baseMs: 2000, maxMs: 8000 } });
      streams.watch(7);
      expect(await until(() => waiting(streams), 10_000)).toBe(true);
      expect(streams.state(7)).toMatchObject({
        status: 'reconnecting',
        lastEventId: 2,
        error: { kind: 'bad_payload' },
      });
      expect(streams.state(7)!.error!.message).toMatch(/longer than 1 MiB/);
      expect(seen).toHaveLength(1);
    });
  });
});

describe('message size guard', () => {
  const run = (max: number, parts: Uint8Array[]) => {
    const guard = createMessageSizeGuard(max);
    return parts.map((p) => guard.feed(p));
  };
  const enc = (t: string) => new TextEncoder().encode(t);
  /** Every way of cutting `text` in two: what the guard answers to each half. */
  const everyCut = (max: number, text: string) => {
    const bytes = enc(text);
    return Array.from({ length: bytes.length + 1 }, (_, cut) => run(max, [bytes.slice(0, cut), bytes.slice(cut)]));
  };

  it('passes lines and messages up to the cap, with any line ends, cut anywhere; comments count as lines only', () => {
    const text =
      ': ping\n'.repeat(10) + // 60 bytes of comments, no blank line: not a message
      'id: 1\nevent: odds\r\n\r\n' + // 5 + 11 = 16
      'data: 0123456789\n\n' + // 16
      'data: abc\rid: 22\r\n\r' + // 9 + 6
      ': comment of 16!' +
      '\r\n';
    for (const answers of everyCut(16, text)) expect(answers).toEqual([true, true]);
  });

  it('trips on a line over the cap before it ends, and on a message over it in short lines, for good', () => {
    expect(run(16, [enc('data: 0123456789'), enc('\n')])).toEqual([true, true]);
    expect(run(16, [enc('data: 01234567'), enc('89x'), enc('\n\n')])).toEqual([true, false, false]);
    expect(run(16, [enc(': a comment of 17'), enc('\n')])).toEqual([false, false]);
    // 14 + 9 bytes in one message: over, wherever the bytes are cut (a CR LF split across chunks is one line end,
    // never a blank line that would start a new message).
    for (const answers of everyCut(16, 'data: abcdefgh\r\ndata: ijk\r\n')) expect(answers).toContain(false);
    // The same lines as two messages pass.
    for (const answers of everyCut(16, 'data: abcdefgh\r\n\r\ndata: ijk\r\n')) expect(answers).toEqual([true, true]);
  });
});
