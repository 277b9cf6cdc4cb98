// Price and drop alerts on watched lines: holds each line's rule state (./priceRules.ts, pure) and feeds it the odds
// pipeline's coalesced batches. A line's drop joins its event's drop episode (./dropEpisodes.ts): what the trader reads
// is one alert per burst, not one per line. Whether a drop rule speaks at all for an event (pre-match, in play, which
// sports) is decided here, once, from the event's state as the stream gives it. The trader's per-event overrides
// (thresholds, another drop rule) live in the profile's store; the defaults come from Settings. Memory follows the
// watchlist: an event's state goes with it. A line's state (its drop reference, its threshold crossings) belongs to
// its line id AND line value (lineKey): a handicap moved under the same id is another line, never a drop from the
// old value's price (issue 35, class 4).
import type { Market } from '../../shared/api';
import type { AlertRecord, DropAlertPhase, NewAlert, PriceAlertOverrides, PriceThreshold } from '../../shared/domain';
import { labelPeriod } from '../../shared/periods';
import { lineKey, sideWords } from '../../shared/trading';
import type { Store } from '../store';
import type { AlertSettings } from './alertRules';
import type { CoalescedEvent } from './coalescer';
import { createDropEpisodes, EPISODE_RULES, type EpisodeRules, type LineDrop } from './dropEpisodes';
import { lineLabel } from './oddsPipeline';
import { dropAlertData, stepLine, type LineState, type PriceRuleConfig } from './priceRules';

export interface PriceAlertSettings {
  dropPct: number;
  dropWindowMinutes: number;
  hysteresisPct: number;
  notify: boolean;
  /** When drop rules speak: before kick-off, in play, or both (default). Price thresholds are not limited. */
  phase?: DropAlertPhase;
  /** The sports whose events' drops alert; empty or absent: every sport. */
  sports?: readonly number[];
}

/** What the scope needs to know of an event: its sport (null: not known yet) and whether it is in play. */
export interface EventFacts {
  sportId: number | null;
  live: boolean;
}

/**
 * Whether an event's drops alert under the trader's scope. In play is the stream saying the match is live
 * (live_status 1); an event whose sport is not known yet is not silenced by a sport filter (it alerts).
 */
export function dropInScope(scope: Pick<PriceAlertSettings, 'phase' | 'sports'>, e: EventFacts): boolean {
  const phase = scope.phase ?? 'both';
  if (phase === 'inplay' && !e.live) return false;
  if (phase === 'prematch' && e.live) return false;
  const sports = scope.sports ?? [];
  return sports.length === 0 || e.sportId === null || sports.includes(e.sportId);
}

const NO_THRESHOLDS: readonly PriceThreshold[] = [];

export const priceAlertKey = (eventId: number) => `priceAlerts.${eventId}`;

export function priceOverrides(store: Pick<Store, 'settings'>, eventId: number): PriceAlertOverrides {
  return store.settings.getSetting<PriceAlertOverrides>(priceAlertKey(eventId)) ?? { thresholds: [] };
}

/** A drop episode just opened: its alert, its notification (at its start only), and where its number goes. */
export interface OpenedDropAlert {
  alert: NewAlert;
  notify: { title: string; body: string } | null;
  bind(record: AlertRecord): void;
}

export interface PriceWatch {
  /** One coalesced batch: threshold alerts go to onAlert at once; drops join their events' episodes (see takeEpisodes). */
  observe(batch: readonly CoalescedEvent[], at: number): void;
  /** The drop episodes opened since the last call, and the updates of open ones that are due (./dropEpisodes.ts). */
  takeEpisodes(at: number): { opened: OpenedDropAlert[]; updated: AlertRecord[] };
  /** When takeEpisodes will have something due (a time past means now), or null. */
  nextEpisodeAt(): number | null;
  forget(eventId: number): void;
  followed(): number;
}

/**
 * Test-only: `ODDSDESK_TEST_DROP_EPISODE_QUIET_MS` shortens the episodes' quiet gap of a host that runs on the real
 * clock (the e2e and desktop-wiring tests), where a test cannot wait ten seconds for an episode to end; like the
 * simulator's ODDSDESK_TEST_DEMO_PACE. Unset (always, outside tests): the rules of docs/trading.md.
 */
export function episodeRulesFrom(env: Record<string, string | undefined>): EpisodeRules {
  const quiet = env['ODDSDESK_TEST_DROP_EPISODE_QUIET_MS'];
  if (quiet === undefined || quiet === '') return EPISODE_RULES;
  const ms = Number(quiet);
  if (!Number.isInteger(ms) || ms < 0 || ms > EPISODE_RULES.quietMs)
    throw new Error(
      `ODDSDESK_TEST_DROP_EPISODE_QUIET_MS must be a whole number of ms from 0 to ${EPISODE_RULES.quietMs}, not ${quiet}`,
    );
  return { ...EPISODE_RULES, quietMs: ms };
}

interface Known extends EventFacts {
  /** "A v B", or null while the store has no names for it. */
  teams: string | null;
}

export function createPriceWatch(o: {
  store: Pick<Store, 'history' | 'settings'>;
  settings(): AlertSettings & { price: PriceAlertSettings; model: PriceRuleConfig['model'] };
  isWatched(eventId: number): boolean;
  onAlert(alert: NewAlert, notify: { title: string; body: string } | null): void;
  episodes?: EpisodeRules;
}): PriceWatch {
  /** Per event, each line's rule state by lineKey (line id and line value). */
  const lines = new Map<number, Map<string, LineState>>();
  const episodes = createDropEpisodes(o.episodes ?? episodeRulesFrom(process.env));
  /**
   * What each event's alerts need to know of it (teams, sport, in play), read from the store once per event and kept
   * current from the batches (a snapshot's header, a score's live state): a busy minute fires hundreds of drops a
   * second, and a read each was a measurable share of the host's time. A bare id's names are read again, so names a
   * later snapshot brings are used; forget() drops them.
   */
  const known = new Map<number, Known>();

  /** `names`: read the store again for an event it had no names for (only an alert that fires asks). */
  function factsOf(eventId: number, names = false): Known {
    let k = known.get(eventId);
    if (!k || (names && k.teams === null)) {
      const e = o.store.history.eventView(eventId);
      const teams = e?.runnerHome && e.runnerAway ? `${e.runnerHome} v ${e.runnerAway}` : null;
      if (!k) known.set(eventId, (k = { teams, sportId: e?.sportId ?? null, live: e?.liveStatus === 1 }));
      else k.teams = teams;
    }
    return k;
  }

  /** The batch's word on the event (a snapshot's header, its latest score) before its prices are judged. */
  function learn(e: CoalescedEvent): Known {
    const k = factsOf(e.eventId);
    if (e.snapshot) {
      k.sportId = e.snapshot.sport_id ?? k.sportId;
      k.live = e.snapshot.live_status === 1;
      if (e.snapshot.runner_home && e.snapshot.runner_away)
        k.teams = `${e.snapshot.runner_home} v ${e.snapshot.runner_away}`;
    }
    if (e.score) k.live = e.score.liveStatus === 1;
    return k;
  }

  const nameOf = (eventId: number) => factsOf(eventId, true).teams ?? `event ${eventId}`;

  return {
    observe(batch, at) {
      const s = o.settings();
      for (const e of batch) {
        // A score or an end alone (they share the batch) moves no price.
        if (e.markets.length === 0 || !o.isWatched(e.eventId)) continue;
        const k = learn(e);
        const over = priceOverrides(o.store, e.eventId);
        const base: PriceRuleConfig = {
          thresholds: NO_THRESHOLDS,
          dropPct: over.dropPct ?? s.price.dropPct,
          dropWindowMinutes: over.dropWindowMinutes ?? s.price.dropWindowMinutes,
          hysteresisPct: s.price.hysteresisPct,
          model: s.model,
        };
        let state = lines.get(e.eventId);
        if (!state) lines.set(e.eventId, (state = new Map()));
        // A muted event, and drops outside the trader's scope, keep the rule's state moving (so unmuting, or a
        // kick-off into scope, does not fire on old moves) but say nothing.
        const muted = s.mutedEvents.has(e.eventId);
        const dropsSpeak = !muted && dropInScope(s.price, k);
        for (const m of e.markets) {
          const thresholds = over.thresholds.length
            ? over.thresholds.filter((t) => t.lineId === m.line_id)
            : NO_THRESHOLDS;
          if (base.dropPct <= 0 && thresholds.length === 0) continue;
          // The label reads the event's names: only an alert that fires needs it (a getter, read once).
          let named: string | undefined;
          const labelOf = () => (named ??= `${nameOf(e.eventId)} ${lineLabel(m)}`);
          const observation = {
            eventId: e.eventId,
            lineId: m.line_id,
            at,
            prices: m.prices,
            market: m.market,
            line: m.line,
            team: m.side,
            get label() {
              return labelOf();
            },
          };
          const key = lineKey(m.line_id, m.line);
          const r = stepLine(state.get(key), observation, thresholds.length ? { ...base, thresholds } : base);
          state.set(key, r.state);
          if (muted) continue;
          for (const alert of r.alerts) {
            if (alert.kind === 'drop') {
              if (dropsSpeak) episodes.add(e.eventId, nameOf(e.eventId), lineDrop(alert, m), at);
              continue;
            }
            o.onAlert(
              alert,
              s.price.notify && !s.doNotDisturb ? { title: `Price: ${labelOf()}`, body: alert.message } : null,
            );
          }
        }
      }
    },
    takeEpisodes(at) {
      const { opened, updated } = episodes.take(at);
      if (!opened.length) return { opened: [], updated };
      const s = o.settings();
      return {
        opened: opened.map((ep) => ({
          alert: ep.alert,
          // One notification per episode, at its start: the burst's later lines are in its alert.
          notify: s.price.notify && !s.doNotDisturb ? { title: `Drop: ${ep.name}`, body: ep.alert.message } : null,
          bind: ep.bind,
        })),
        updated,
      };
    },
    nextEpisodeAt: () => episodes.nextAt(),
    forget(eventId) {
      lines.delete(eventId);
      known.delete(eventId);
      episodes.forget(eventId);
    },
    followed: () => lines.size,
  };
}

/** A per-line drop alert (./priceRules.ts) as a line of its event's episode. */
function lineDrop(alert: NewAlert, m: Market): LineDrop {
  const d = dropAlertData(alert);
  return {
    lineId: d.lineId,
    line: m.line,
    side: d.side,
    words: `${sideWords(m.market, m.line, d.side, { team: m.side })} · ${labelPeriod(false, m.period)}`,
    from: d.from,
    to: d.to,
    pct: d.pct,
    basis: d.basis,
    model: d.model,
    message: alert.message,
  };
}
