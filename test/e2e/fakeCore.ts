// A fake core for UI tests and screenshots: installs `window.oddsdesk` (the same OddsdeskApi the Electron preload
// exposes) before the renderer loads, answering every contract channel from deterministic in-memory data and
// pushing odds ticks. It lets the renderer be tested without the monitor engine or an upstream, and serves the
// renderer's built files from a fake origin so no host process is needed.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from '@playwright/test';

export interface FakeOptions {
  plan?: 'starter' | 'enterprise';
  auth?: 'ok' | 'rejected' | 'missing';
  connection?: 'online' | 'offline';
  /** Event ids watched at start (fixtures are 1001..1040). */
  watched?: number[];
  /** ms between odds pushes; 0 = only when the test calls __fake.tick(). */
  tickMs?: number;
  seed?: number;
  settlements?: number;
  demo?: boolean;
}

const FAKE_ORIGIN = 'http://oddsdesk.test';

/** Serves out/web on a fake origin and installs the fake core; returns the URL to open. */
export async function openWithFakeCore(page: Page, options: FakeOptions = {}): Promise<string> {
  const webDir = path.resolve(process.cwd(), 'out/web'); // Playwright and the scripts run from the repo root
  await page.route(`${FAKE_ORIGIN}/**`, async (route) => {
    const url = new URL(route.request().url());
    const rel = url.pathname === '/' ? 'index.html' : decodeURIComponent(url.pathname.slice(1));
    const file = path.join(webDir, path.normalize(rel));
    if (!file.startsWith(webDir)) return route.fulfill({ status: 403 });
    try {
      const body = await readFile(file);
      const type = file.endsWith('.html') ? 'text/html' : file.endsWith('.js') ? 'text/javascript' : file.endsWith('.css') ? 'text/css' : 'application/octet-stream';
      return route.fulfill({ status: 200, body, contentType: type });
    } catch {
      return route.fulfill({ status: 404 });
    }
  });
  // Sent as source text: transpilers (tsx, Playwright's loader) may wrap nested functions in a `__name` helper
  // that does not exist in the page, so a no-op one goes first.
  await page.addInitScript({ content: `var __name = (f) => f;\n(${installFakeCore.toString()})(${JSON.stringify(options)});` });
  return `${FAKE_ORIGIN}/`;
}

/**
 * Runs in the page (serialised by Playwright), so it must not reference anything outside itself.
 * The shapes follow src/shared/ipc/contract.ts.
 */
function installFakeCore(opts: FakeOptions): void {
  type Json = Record<string, unknown>;
  let seed = opts.seed ?? 7;
  const rnd = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const now = Date.now();
  const svc = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().slice(0, 19);
  const sports = [
    { sport_id: 1, name: 'Soccer' },
    { sport_id: 2, name: 'Tennis' },
    { sport_id: 3, name: 'Basketball' },
  ];
  const leagues: Record<number, Array<[number, string]>> = {
    1: [
      [101, 'England - Premier League'],
      [102, 'Spain - La Liga'],
      [103, 'Germany - Bundesliga'],
    ],
    2: [
      [201, 'ATP Vienna'],
      [202, 'WTA Linz'],
    ],
    3: [[301, 'NBA']],
  };
  const teams: Record<number, string[]> = {
    1: ['Arsenal', 'Chelsea', 'Liverpool', 'Everton', 'Real Betis', 'Sevilla', 'Valencia', 'Girona', 'Mainz', 'Freiburg', 'Bochum', 'Union Berlin'],
    2: ['J. Sinner', 'C. Alcaraz', 'A. Zverev', 'D. Medvedev', 'H. Rune', 'T. Fritz', 'I. Swiatek', 'C. Gauff'],
    3: ['Celtics', 'Knicks', 'Lakers', 'Nuggets', 'Bucks', 'Heat', 'Suns', 'Warriors'],
  };
  interface Ev {
    eventId: number;
    sportId: number;
    sportName: string;
    leagueId: number;
    leagueName: string;
    runnerHome: string;
    runnerAway: string;
    starts: number;
    liveStatus: number;
    scoreHome: number | null;
    scoreAway: number | null;
  }
  interface Mk {
    lineId: number;
    period: number;
    market: string;
    side: 'home' | 'away' | null;
    line: number | null;
    prices: Record<string, number> | null;
    maxWin: number | null;
    updatedAt: string | null;
    seenAt: number;
  }
  const round3 = (x: number) => Math.round(x * 1000) / 1000;
  const events: Ev[] = [];
  const markets = new Map<number, Mk[]>();
  for (let i = 0; i < 40; i++) {
    const sportId = (i % 3) + 1;
    const ls = leagues[sportId]!;
    const [leagueId, leagueName] = ls[i % ls.length]!;
    const ts = teams[sportId]!;
    const h = ts[(i * 2) % ts.length]!;
    const a = ts[(i * 2 + 1 + Math.floor(i / ts.length)) % ts.length]!;
    const live = i % 4 === 0;
    const ev: Ev = {
      eventId: 1001 + i,
      sportId,
      sportName: sports[sportId - 1]!.name,
      leagueId,
      leagueName,
      runnerHome: h,
      runnerAway: a === h ? `${a} II` : a,
      starts: now + (live ? -40 : 30 + i * 25) * 60_000,
      liveStatus: live ? 1 : 0,
      scoreHome: live ? Math.floor(rnd() * 3) : null,
      scoreAway: live ? Math.floor(rnd() * 3) : null,
    };
    events.push(ev);
    const ms: Mk[] = [];
    const periods = sportId === 2 ? [0, 1] : [0, 1];
    for (const p of periods) {
      const base = ev.eventId * 100 + p * 10;
      const hp = 1.6 + rnd() * 2;
      const draw = sportId === 1;
      const ml: Record<string, number> = draw ? { home: round3(hp), draw: round3(3 + rnd()), away: round3(1 / (1.06 - 1 / hp - 1 / 3.4)) } : { home: round3(hp), away: round3(1 / (1.05 - 1 / hp)) };
      if (ml['away']! <= 1.01 || !Number.isFinite(ml['away']!)) ml['away'] = 6.5;
      const mw = (x: number) => Math.round(x / 100) * 100;
      ms.push({ lineId: base + 1, period: p, market: 'moneyline', side: null, line: null, prices: ml, maxWin: mw(20000 + rnd() * 80000), updatedAt: svc(now), seenAt: now });
      const sl = sportId === 3 ? -4.5 : sportId === 2 ? -1.5 : -0.5;
      ms.push({ lineId: base + 2, period: p, market: 'spread', side: 'home', line: sl, prices: { home: round3(1.9 + rnd() * 0.1), away: round3(1.9 + rnd() * 0.1) }, maxWin: mw(15000 + rnd() * 30000), updatedAt: svc(now), seenAt: now });
      ms.push({ lineId: base + 3, period: p, market: 'spread', side: 'home', line: sl - 1, prices: { home: round3(2.3 + rnd() * 0.2), away: round3(1.6 + rnd() * 0.1) }, maxWin: mw(10000 + rnd() * 20000), updatedAt: svc(now), seenAt: now });
      const tl = sportId === 3 ? 221.5 : sportId === 2 ? 22.5 : 2.5;
      ms.push({ lineId: base + 4, period: p, market: 'totals', side: null, line: p ? tl / 2 : tl, prices: { over: round3(1.88 + rnd() * 0.1), under: round3(1.88 + rnd() * 0.1) }, maxWin: mw(15000 + rnd() * 30000), updatedAt: svc(now), seenAt: now });
    }
    markets.set(ev.eventId, ms);
  }
  const byId = new Map(events.map((e) => [e.eventId, e]));
  const watched = new Map<number, number>((opts.watched ?? [1001, 1002, 1003, 1004, 1005, 1006, 1007, 1008, 1009, 1010, 1011, 1012]).map((id, i) => [id, now - (100 - i) * 60_000]));
  const settings = {
    baseUrl: 'https://api.example-odds.test',
    hasKey: opts.auth !== 'missing',
    keychain: { available: true, message: null },
    demo: !!opts.demo,
    devigModel: 'MPTO',
    maxWinThresholdPct: 25,
    notifySettlements: true,
    notifyMaxWin: true,
    doNotDisturb: false,
    retentionDays: 30,
    settledEverySeconds: 60,
    theme: 'dark',
    mutedEvents: [] as number[],
  };
  const plan = opts.plan ?? 'enterprise';
  const status = () => ({
    connection: opts.connection ?? 'online',
    demo: !!opts.demo,
    auth: opts.auth ?? 'ok',
    plan,
    restricted: plan === 'starter' ? [{ path: '/api/specials/fixtures', requiredPlan: 'enterprise', yourPlan: 'starter' }] : [],
    quota: { used: 312, remaining: 688, limit: 1000, resetAt: now + 40 * 60_000, pausedUntil: null },
    streams: [...watched.keys()].map((eventId) => ({ eventId, state: plan === 'starter' ? 'restricted' : 'live', lastMessageAt: Date.now() })),
    lastSettledSync: now - 25_000,
    lastError: null,
  });
  const watchView = (id: number) => ({ ...byId.get(id)!, addedAt: watched.get(id)!, settled: false, markets: markets.get(id)! });

  // ---- settlements ----
  const outcomes = ['win', 'loss', 'push'] as const;
  const settled: Json[] = [];
  const nSettled = opts.settlements ?? 400;
  for (let i = 0; i < nSettled; i++) {
    const sportId = (i % 3) + 1;
    const ls = leagues[sportId]!;
    const [leagueId, leagueName] = ls[i % ls.length]!;
    const ts = teams[sportId]!;
    const sh = Math.floor(rnd() * 4);
    const sa = Math.floor(rnd() * 4);
    const r = sh > sa ? 'home' : sh < sa ? 'away' : 'draw';
    const settledAt = now - i * 37 * 60_000 - 5 * 60_000;
    settled.push({
      eventId: 5000 + i,
      sportId,
      leagueId,
      leagueName,
      runnerHome: ts[i % ts.length],
      runnerAway: ts[(i + 3) % ts.length],
      starts: settledAt - 2 * 3600_000,
      settledAt,
      scoreHome: sh,
      scoreAway: sa,
      status: 'settled',
      lineCount: 6,
      moneyline: {
        home: r === 'home' ? 'win' : 'loss',
        draw: r === 'draw' ? 'win' : 'loss',
        away: r === 'away' ? 'win' : 'loss',
      },
    });
  }
  const settledDetail = (row: Json) => ({
    event_id: row['eventId'],
    sport_id: row['sportId'],
    league_id: row['leagueId'],
    league_name: row['leagueName'],
    runner_home: row['runnerHome'],
    runner_away: row['runnerAway'],
    starts: svc(row['starts'] as number),
    score_home: row['scoreHome'],
    score_away: row['scoreAway'],
    status: row['status'],
    settled_at: svc(row['settledAt'] as number),
    settlement: [0, 1].flatMap((p) => [
      { line_id: p * 10 + 1, period: p, market: 'moneyline', line: null, ...mlOutcome(row, p) },
      { line_id: p * 10 + 2, period: p, market: 'spread', line: -0.5, outcome_home: outcomes[p % 3], outcome_draw: 'loss', outcome_away: p ? 'push' : 'loss' },
      { line_id: p * 10 + 4, period: p, market: 'totals', line: 2.5, outcome_home: 'win', outcome_draw: 'loss', outcome_away: 'loss' },
    ]),
  });
  function mlOutcome(row: Json, p: number) {
    const m = row['moneyline'] as Record<string, string>;
    return p === 0 ? { outcome_home: m['home'], outcome_draw: m['draw'], outcome_away: m['away'] } : { outcome_home: 'push', outcome_draw: 'loss', outcome_away: 'push' };
  }
  function querySettled(q: Json) {
    const team = typeof q['team'] === 'string' ? (q['team'] as string).toLowerCase() : null;
    const oc = q['outcome'] as { side: string; result: string } | undefined;
    let rows = settled.filter(
      (r) =>
        (q['sportId'] === undefined || r['sportId'] === q['sportId']) &&
        (q['leagueId'] === undefined || r['leagueId'] === q['leagueId']) &&
        (!team || `${r['runnerHome']} ${r['runnerAway']}`.toLowerCase().includes(team)) &&
        (q['from'] === undefined || (r['settledAt'] as number) >= (q['from'] as number)) &&
        (q['to'] === undefined || (r['settledAt'] as number) < (q['to'] as number)) &&
        (!oc || (r['moneyline'] as Record<string, string>)[oc.side] === oc.result),
    );
    rows = rows.sort((a, b) => (b['settledAt'] as number) - (a['settledAt'] as number) || (b['eventId'] as number) - (a['eventId'] as number));
    const total = rows.length;
    const after = q['after'] as { settledAt: number; eventId: number } | undefined;
    if (after) rows = rows.filter((r) => (r['settledAt'] as number) < after.settledAt || (r['settledAt'] === after.settledAt && (r['eventId'] as number) < after.eventId));
    const limit = (q['limit'] as number | undefined) ?? 50;
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return { rows: page, total: q['withoutTotal'] ? null : total, next: rows.length > limit && last ? { settledAt: last['settledAt'], eventId: last['eventId'] } : null };
  }

  // ---- alerts ----
  let alertId = 1;
  const alerts: Json[] = [];
  for (let i = 0; i < 24; i++) {
    const ev = events[i % 12]!;
    const kind = i % 3 === 0 ? 'settled' : 'max_win_change';
    alerts.push({
      id: alertId++,
      at: now - i * 7 * 60_000,
      kind,
      eventId: ev.eventId,
      specialId: kind === 'settled' ? null : 9000 + i,
      contestantId: null,
      message: kind === 'settled' ? `Settled: ${ev.runnerHome} v ${ev.runnerAway} ${i % 4}–${i % 3}` : `Max win ${ev.runnerHome}: ${(20000 + i * 1500).toLocaleString('en-US')} → ${(26000 + i * 1700).toLocaleString('en-US')} (+${(20 + i).toFixed(0)}%)`,
      data: null,
    });
  }

  // ---- specials ----
  const models = ['LOG', 'EM', 'MPTO', 'SHIN', 'OR'];
  const specialsOf = (eventId: number) => {
    const ev = byId.get(eventId) ?? events[0]!;
    const mk = (specialId: number, name: string, names: string[]) => ({
      eventId,
      specialId,
      specialName: name,
      betType: 'MULTI_WAY_HEAD_TO_HEAD',
      category: 'Player props',
      units: 'Goals',
      period: 0,
      cutoff: svc(ev.starts),
      contestants: names.map((n, i) => {
        const odds = round3(1.8 + i * 0.9 + rnd() * 0.3);
        return {
          contestantId: specialId * 10 + i,
          contestantName: n,
          handicap: null,
          odds,
          todds: round3(odds * 1.06),
          maxWin: Math.round((30000 - i * 4000) / 100) * 100,
          clv: models.map((m, k) => {
            const open = round3(odds * (1.04 + k * 0.004));
            const close = round3(open * (0.95 + rnd() * 0.1));
            return { eventId, specialId, specialName: name, contestantId: specialId * 10 + i, contestantName: n, model: m, openingTrueOdds: open, openedAt: now - 86_400_000, closingTrueOdds: close, closedAt: now - 600_000, clv: open / close - 1 };
          }),
        };
      }),
    });
    const specials = [mk(eventId * 10 + 1, 'First goalscorer', [`${ev.runnerHome} #9`, `${ev.runnerHome} #10`, `${ev.runnerAway} #9`, 'No goal']), mk(eventId * 10 + 2, 'Winning margin', ['Home by 1', 'Home by 2+', 'Draw', 'Away by 1', 'Away by 2+'])];
    const maxWinPoints = specials.flatMap((sp) =>
      sp.contestants.slice(0, 2).flatMap((c, i) => [
        { eventId, specialId: sp.specialId, specialName: sp.specialName, contestantId: c.contestantId, contestantName: c.contestantName, at: now - 3 * 3600_000, maxWin: 20000, previousMaxWin: null, odds: c.odds, todds: c.todds },
        { eventId, specialId: sp.specialId, specialName: sp.specialName, contestantId: c.contestantId, contestantName: c.contestantName, at: now - (60 + i * 20) * 60_000, maxWin: c.maxWin, previousMaxWin: 20000, odds: c.odds, todds: c.todds },
      ]),
    );
    return { eventId, restricted: null, specials, maxWinPoints };
  };

  const listeners = new Map<string, Set<(p: unknown) => void>>();
  const push = (event: string, payload: unknown) => {
    for (const l of listeners.get(event) ?? []) l(payload);
  };
  const err = (kind: string, message: string, extra: Json = {}) => ({ ok: false, error: { kind, message, ...extra } });
  const planError = () => err('plan', 'This needs the enterprise plan', { requiredPlan: 'enterprise', yourPlan: plan });

  const handlers: Record<string, (...args: never[]) => unknown> = {
    'app:info': () => ({ version: '0.1.0', demo: !!opts.demo, host: 'browser', baseUrl: settings.baseUrl }),
    'status:get': () => status(),
    'coverage:get': () => ({ sports: [{ sport: 'Basketball', events: 124 }, { sport: 'Soccer', events: 1312 }, { sport: 'Tennis', events: 486 }], fetchedAt: now, raw: { standard: {} } }),
    'sports:list': () => sports,
    'fixtures:list': (q: Json) =>
      events
        .filter((e) => (q['sportId'] === undefined || e.sportId === q['sportId']) && (!q['liveOnly'] || e.liveStatus === 1))
        .map((e) => ({ event_id: e.eventId, sport_id: e.sportId, sport_name: e.sportName, league_id: e.leagueId, league_name: e.leagueName, runner_home: e.runnerHome, runner_away: e.runnerAway, starts: svc(e.starts), live_status: e.liveStatus, watched: watched.has(e.eventId) })),
    'watch:list': () => [...watched.keys()].map(watchView),
    'watch:add': (id: number) => {
      if (!byId.has(id)) return err('not_found', `Event ${id} is not in the book`);
      if (!watched.has(id)) watched.set(id, Date.now());
      setTimeout(() => push('onStatus', status()), 0);
      return watchView(id);
    },
    'watch:remove': (id: number) => {
      watched.delete(id);
      setTimeout(() => push('onStatus', status()), 0);
      return null;
    },
    'event:detail': (id: number) => {
      const e = byId.get(id);
      if (!e) return err('not_found', `Event ${id} is unknown`);
      const tennis = e.sportId === 2;
      const periodResults = (tennis ? [1, 6, 7, 8] : [1]).map((p) => ({
        eventId: id,
        period: p,
        periodLabel: tennis ? (p === 1 ? 'Set 1' : `Set 1 Game ${p - 5}`) : e.sportId === 1 ? '1st half' : 'Quarter 1',
        status: 1,
        scoreHome: tennis && p > 1 ? (p % 2) : 1,
        scoreAway: tennis && p > 1 ? ((p + 1) % 2) : 0,
        setsHome: tennis && p === 1 ? 1 : null,
        setsAway: tennis && p === 1 ? 0 : null,
        settlementId: p,
        cancellationReason: null,
        timestamp: now - 1800_000,
        sportId: e.sportId,
      }));
      return { event: e, watched: watched.has(id), settled: false, markets: markets.get(id)!, periodResults: e.liveStatus === 1 ? periodResults : [], liveStates: [], settlement: null };
    },
    'event:lineHistory': (eventId: number, lineId: number) => {
      const m = markets.get(eventId)?.find((x) => x.lineId === lineId);
      if (!m || !m.prices) return [];
      const pts = [];
      let mw = (m.maxWin ?? 20000) * 0.7;
      for (let i = 0; i < 60; i++) {
        const f = 1 + Math.sin(i / 6) * 0.03 + (rnd() - 0.5) * 0.01;
        if (i % 15 === 14) mw = Math.round((mw * 1.12) / 100) * 100;
        pts.push({ at: now - (60 - i) * 60_000, line: m.line, prices: Object.fromEntries(Object.entries(m.prices).map(([k, v]) => [k, round3(v * f)])), maxWin: mw });
      }
      return pts;
    },
    'specials:list': (eventId: number) => (plan === 'starter' ? { eventId, restricted: { kind: 'plan', message: 'Specials need the enterprise plan', requiredPlan: 'enterprise', yourPlan: 'starter' }, specials: [], maxWinPoints: [] } : specialsOf(eventId)),
    'specials:history': (_e: number, _s: number, _c: number) =>
      Array.from({ length: 12 }, (_, i) => ({ at: now - (12 - i) * 15 * 60_000, handicap: 0, odds: round3(3 + Math.sin(i) * 0.2), todds: round3(3.2 + Math.sin(i) * 0.2), maxWin: 20000 + Math.floor(i / 3) * 2500 })),
    'outrights:list': (q: Json) => {
      if (plan === 'starter') return planError();
      const all = [
        { sport: 1, name: 'Premier League winner', league: [101, 'England - Premier League'], cs: teams[1]!.slice(0, 10) },
        { sport: 1, name: 'La Liga top scorer', league: [102, 'Spain - La Liga'], cs: ['Lewandowski', 'Mbappé', 'Vinícius', 'Griezmann', 'Morata', 'Williams', 'Isco', 'Budimir'] },
        { sport: 2, name: 'ATP Vienna winner', league: [201, 'ATP Vienna'], cs: teams[2]!.slice(0, 8) },
        { sport: 3, name: 'NBA Championship', league: [301, 'NBA'], cs: teams[3]! },
        { sport: 3, name: 'NBA MVP', league: [301, 'NBA'], cs: ['Jokić', 'Gilgeous-Alexander', 'Dončić', 'Antetokounmpo', 'Tatum'] },
      ];
      const min = (q['minContestants'] as number | undefined) ?? 8;
      return all
        .filter((o) => (q['sportId'] === undefined || o.sport === q['sportId']) && o.cs.length >= min)
        .map((o, i) => ({
          event_id: 8000 + i,
          special_id: 8100 + i,
          special_name: o.name,
          cutoff: svc(now + 20 * 86_400_000),
          sport_id: o.sport,
          sport_name: sports[o.sport - 1]!.name,
          league_id: o.league[0],
          league_name: o.league[1],
          home: o.name,
          away: 'Field',
          starts: svc(now + 21 * 86_400_000),
          live_status: 0,
          contestants: o.cs.map((name, k) => ({ name, handicap: 0, odds: round3(2.5 + k * 1.7), todds: round3(2.7 + k * 1.8) })),
        }));
    },
    'settlements:query': (q: Json) => querySettled(q),
    'settlements:detail': (id: number) => {
      const row = settled.find((r) => r['eventId'] === id);
      return row ? { settlement: settledDetail(row), periodResults: [] } : null;
    },
    'settlements:syncNow': () => ({ added: 0 }),
    'settlements:exportCsv': (q: Json) => {
      const rows = querySettled({ ...q, limit: 100000 }).rows;
      return ['event_id,settled_at,home,away,score_home,score_away', ...rows.map((r) => [r['eventId'], new Date(r['settledAt'] as number).toISOString(), r['runnerHome'], r['runnerAway'], r['scoreHome'], r['scoreAway']].join(','))].join('\n');
    },
    'alerts:list': () => alerts,
    'alerts:mute': (id: number, muted: boolean) => {
      settings.mutedEvents = muted ? [...settings.mutedEvents.filter((x) => x !== id), id] : settings.mutedEvents.filter((x) => x !== id);
      return null;
    },
    'settings:get': () => settings,
    'settings:update': (patch: Json) => Object.assign(settings, patch),
    'settings:setApiKey': () => Object.assign(settings, { hasKey: true }),
    'settings:clearApiKey': () => Object.assign(settings, { hasKey: false }),
  };

  // ---- odds ticks ----
  let tickNo = 0;
  function tick(eventId?: number, lineId?: number, side?: string, to?: number) {
    tickNo++;
    const ids = eventId !== undefined ? [eventId] : [...watched.keys()].filter(() => rnd() < 0.4);
    const batch = {
      at: Date.now(),
      events: ids.map((id) => {
        const ms = markets.get(id)!;
        const changed = ms.filter((m) => (lineId !== undefined ? m.lineId === lineId : rnd() < 0.35) && m.prices);
        for (const m of changed) {
          const prices = { ...m.prices! };
          for (const k of Object.keys(prices)) if (!side || k === side) prices[k] = to !== undefined ? to : round3(Math.max(1.01, prices[k]! * (1 + (rnd() - 0.5) * 0.04)));
          m.prices = prices;
          m.seenAt = Date.now();
          if (tickNo % 7 === 0) m.maxWin = Math.round(((m.maxWin ?? 10000) * 1.1) / 100) * 100;
        }
        return { eventId: id, markets: changed.map((m) => ({ ...m })) };
      }),
    };
    push('onOdds', batch);
  }
  if ((opts.tickMs ?? 800) > 0) setInterval(() => tick(), opts.tickMs ?? 800);

  const fake = {
    push,
    tick,
    events,
    addAlert(a: Json) {
      const rec = { id: alertId++, at: Date.now(), eventId: null, specialId: null, contestantId: null, data: null, ...a };
      alerts.unshift(rec);
      push('onAlert', rec);
      return rec;
    },
    addSettlement(row: Json) {
      settled.unshift(row);
      push('onSettlement', row);
    },
    setStatus(patch: Json) {
      push('onStatus', { ...status(), ...patch });
    },
  };
  (window as unknown as { __fake: typeof fake }).__fake = fake;
  (window as unknown as { oddsdesk: unknown }).oddsdesk = {
    async invoke(channel: string, ...args: unknown[]) {
      await new Promise((r) => setTimeout(r, 5));
      const h = handlers[channel];
      if (!h) return { ok: false, error: { kind: 'internal', message: `${channel} unknown` } };
      const v = (h as (...a: unknown[]) => unknown)(...args);
      if (v && typeof v === 'object' && 'ok' in (v as Json) && (v as Json)['ok'] === false) return v;
      return { ok: true, value: JSON.parse(JSON.stringify(v)) };
    },
    on(event: string, l: (p: unknown) => void) {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      set.add(l);
      if (event === 'onStatus') setTimeout(() => l(status()), 0);
      return () => set.delete(l);
    },
  };
}
