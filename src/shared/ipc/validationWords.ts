// The contract's refusals in a trader's words: a request whose arguments do not pass their schema is answered with
// what is wrong with which field ("Drop alert must be a number from 0 to 100"), named as the screens name it, never
// with the schema's own text ("Bad arguments for settings:update: Too big: expected number to be <=100"). The range
// a number must be in is read from the schema itself, so the words cannot drift from the rule. Pure; no I/O.
import type { z } from 'zod';

/** What a trader calls each field, by its name in a request (the last name on the issue's path). */
const FIELD_WORDS: Record<string, string> = {
  // settings:update
  baseUrl: 'Service base URL',
  devigModel: 'De-vig model',
  maxWinThresholdPct: 'Max stake alert threshold',
  notifySettlements: 'Notify settlements',
  settlementAlerts: 'Settlement alerts',
  settlementSports: 'Settlement alert sports',
  settlementLeagues: 'Settlement alert leagues',
  settlementSound: 'Settlement sound',
  maxWinSound: 'Max stake sound',
  priceSound: 'Price alert sound',
  notifyMaxWin: 'Notify max stake changes',
  doNotDisturb: 'Do not disturb',
  retentionDays: 'Tick history (days)',
  rawTickHours: 'Full tick detail (hours)',
  settledEverySeconds: 'Settlement sync interval (seconds)',
  quotaPerHour: 'Hourly quota',
  theme: 'Theme',
  dropAlertPct: 'Drop alert',
  dropWindowMinutes: 'Drop window (minutes)',
  dropAlertPhase: 'Drop alerts when',
  dropAlertSports: 'Drop alert sports',
  priceAlertHysteresisPct: 'Price alert hysteresis',
  notifyPriceAlerts: 'Notify price alerts',
  moneyUnit: 'Money unit',
  oddsFormat: 'Odds format',
  timeZone: 'Time zone',
  gridColumns: 'Grid columns',
  gridLayout: 'Grid layout',
  columns: 'Grid columns',
  sort: 'Grid sort',
  key: 'Sort column',
  dir: 'Sort direction',
  // bets and price alerts
  eventId: 'Event id',
  lineId: 'Line',
  side: 'Side',
  price: 'Price',
  stake: 'Stake',
  note: 'Note',
  dropPct: 'Drop alert',
  thresholds: 'Price thresholds',
  'thresholds.price': 'Threshold price',
  'thresholds.side': 'Threshold side',
  'thresholds.lineId': 'Threshold line',
  // queries
  sportId: 'Sport',
  leagueId: 'League',
  team: 'Team',
  from: 'From date',
  to: 'To date',
  status: 'Status',
  market: 'Market',
  outcome: 'Outcome',
  result: 'Result',
  scope: 'Outcome scope',
  limit: 'Number of rows',
  beforeId: 'Page',
  after: 'Page',
  liveOnly: 'Live only',
  minContestants: 'Minimum contestants',
  withoutTotal: 'Without total',
  since: 'Since',
  // the desktop shell
  closeToTray: 'Closing to the tray',
};

/** Positional arguments, by channel: what each is. */
const ARG_WORDS: Record<string, readonly string[]> = {
  'watch:add': ['Event id'],
  'watch:remove': ['Event id'],
  'event:detail': ['Event id'],
  'event:lineHistory': ['Event id', 'Line'],
  'specials:list': ['Event id'],
  'specials:history': ['Event id', 'Special', 'Contestant'],
  'settlements:detail': ['Event id'],
  'alerts:mute': ['Event id', 'Mute'],
  'alerts:snooze': ['Event id', 'Snooze end'],
  'settings:setApiKey': ['API key', 'Service base URL'],
  'bets:remove': ['Bet'],
  'bets:update': ['Bet', 'Change'],
  'bets:restore': ['Bet'],
  'bets:history': ['Bet'],
  'bets:settle': ['Bet', 'Result'],
  'lines:closing': ['Event id'],
  'priceAlerts:get': ['Event id'],
  'priceAlerts:set': ['Event id', 'Price alerts'],
};

/** camelCase to words, for a field this table does not know: "dropWindowMinutes" -> "Drop window minutes". */
function fromName(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/_/g, ' ')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The field an issue is about, in words. */
export function fieldWords(channel: string, path: readonly PropertyKey[]): string {
  const names = path.filter((p): p is string => typeof p === 'string');
  if (names.length >= 2) {
    const pair = `${names[names.length - 2]}.${names[names.length - 1]}`;
    if (FIELD_WORDS[pair]) return FIELD_WORDS[pair];
  }
  const last = names[names.length - 1];
  if (last !== undefined) return FIELD_WORDS[last] ?? fromName(last);
  const index = typeof path[0] === 'number' ? path[0] : 0;
  return ARG_WORDS[channel]?.[index] ?? (index === 0 ? 'The value' : `Value ${index + 1}`);
}

// ---- reading the rule off the schema ----

type AnySchema = z.core.$ZodType;
interface Def {
  type: string;
  items?: AnySchema[];
  shape?: Record<string, AnySchema>;
  element?: AnySchema;
  innerType?: AnySchema;
  in?: AnySchema;
  checks?: Array<{ _zod: { def: { check: string; value?: number; inclusive?: boolean; format?: string } } }>;
}
const defOf = (s: AnySchema): Def => (s as unknown as { _zod: { def: Def } })._zod.def;

/** Optional, nullable, default and piped (transformed) schemas, unwrapped to the one that checks. */
function unwrap(s: AnySchema): AnySchema {
  for (let i = 0; i < 10; i++) {
    const d = defOf(s);
    if (
      (d.type === 'optional' || d.type === 'nullable' || d.type === 'default' || d.type === 'readonly') &&
      d.innerType
    )
      s = d.innerType;
    else if (d.type === 'pipe' && d.in) s = d.in;
    else break;
  }
  return s;
}

/** The schema at a path inside the request's tuple, or null when the path leaves what the schema describes. */
function schemaAt(root: AnySchema, path: readonly PropertyKey[]): AnySchema | null {
  let s: AnySchema = unwrap(root);
  for (const p of path) {
    const d = defOf(s);
    let next: AnySchema | undefined;
    if (d.type === 'tuple' && typeof p === 'number') next = d.items?.[p];
    else if (d.type === 'array' && typeof p === 'number') next = d.element;
    else if (d.type === 'object' && typeof p === 'string') next = d.shape?.[p];
    if (!next) return null;
    s = unwrap(next);
  }
  return s;
}

interface NumberRule {
  whole: boolean;
  min: { value: number; inclusive: boolean } | null;
  max: { value: number; inclusive: boolean } | null;
}

function numberRule(s: AnySchema | null): NumberRule | null {
  if (!s || defOf(s).type !== 'number') return null;
  const rule: NumberRule = { whole: false, min: null, max: null };
  for (const c of defOf(s).checks ?? []) {
    const d = c._zod.def;
    if (d.check === 'number_format' && (d.format === 'safeint' || d.format === 'int32' || d.format === 'uint32'))
      rule.whole = true;
    else if (d.check === 'greater_than' && typeof d.value === 'number')
      rule.min = { value: d.value, inclusive: d.inclusive ?? true };
    else if (d.check === 'less_than' && typeof d.value === 'number')
      rule.max = { value: d.value, inclusive: d.inclusive ?? true };
  }
  if (rule.whole && rule.min === null) rule.min = { value: Number.MIN_SAFE_INTEGER, inclusive: true };
  if (rule.min?.value === Number.MIN_SAFE_INTEGER) rule.min = null;
  return rule;
}

const num = (n: number) => (Number.isInteger(n) ? n.toLocaleString('en-US') : String(n));

/** "a number from 0 to 100", "a whole number from 1 to 240", "a number above 1, at most 1000", "a whole number of 0 or more". */
export function numberWords(rule: NumberRule): string {
  const noun = rule.whole ? 'a whole number' : 'a number';
  const { min, max } = rule;
  if (min?.inclusive && max?.inclusive) return `${noun} from ${num(min.value)} to ${num(max.value)}`;
  const low = min ? (min.inclusive ? `${num(min.value)} or more` : `above ${num(min.value)}`) : null;
  const high = max ? (max.inclusive ? `at most ${num(max.value)}` : `below ${num(max.value)}`) : null;
  if (low && high) return `${noun} ${min!.inclusive ? `of at least ${num(min!.value)}` : low}, ${high}`;
  if (low) return min!.inclusive ? `${noun} of ${low}` : `${noun} ${low}`;
  if (high) return `${noun} ${high}`;
  return noun;
}

const TYPE_WORDS: Record<string, string> = {
  number: 'a number',
  int: 'a whole number',
  string: 'text',
  boolean: 'on or off (true or false)',
  array: 'a list',
  object: 'a set of fields',
};

const list = (values: readonly unknown[]) => {
  const shown = values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
  return shown.length <= 1 ? (shown[0] ?? '') : `${shown.slice(0, -1).join(', ')} or ${shown[shown.length - 1]}`;
};

/**
 * One issue of a request's arguments, in words: which field, and what it must be. The channel names positional
 * arguments; the schema gives the range of a number. Never shows the value that was sent (it could be a key).
 */
export function validationMessage(channel: string, schema: AnySchema, issue: z.core.$ZodIssue): string {
  const path = issue.path;
  const field = fieldWords(channel, path);
  const at = schemaAt(schema, path);
  const rule = numberRule(at);
  switch (issue.code) {
    case 'too_small':
    case 'too_big': {
      if (issue.origin === 'number' || issue.origin === 'int' || rule) {
        return `${field} must be ${numberWords(rule ?? { whole: false, min: issue.code === 'too_small' ? { value: Number(issue.minimum), inclusive: issue.inclusive ?? true } : null, max: issue.code === 'too_big' ? { value: Number(issue.maximum), inclusive: issue.inclusive ?? true } : null })}`;
      }
      if (issue.origin === 'string') {
        return issue.code === 'too_big'
          ? `${field} must be at most ${num(Number(issue.maximum))} characters`
          : Number(issue.minimum) <= 1
            ? `${field} must not be blank`
            : `${field} must be at least ${num(Number(issue.minimum))} characters`;
      }
      if (issue.origin === 'array' && path.length === 0) {
        const words = ARG_WORDS[channel];
        return `This request takes ${words ? `${words.length === 1 ? 'one value' : `${words.length} values`} (${list(words)})` : issue.code === 'too_big' ? `at most ${num(Number(issue.maximum))} values` : `at least ${num(Number(issue.minimum))} values`}`;
      }
      if (issue.origin === 'array')
        return issue.code === 'too_big'
          ? `${field} may hold at most ${num(Number(issue.maximum))} entries`
          : `${field} needs at least ${num(Number(issue.minimum))} entries`;
      return `${field} is ${issue.code === 'too_big' ? 'too large' : 'too small'}`;
    }
    case 'invalid_type': {
      if (/received undefined$/.test(issue.message)) return `${field} is missing`;
      if (rule) return `${field} must be ${numberWords(rule)}`;
      const expected = TYPE_WORDS[issue.expected] ?? issue.expected;
      return `${field} must be ${expected}`;
    }
    case 'invalid_value':
      return `${field} must be ${issue.values.length === 1 ? list(issue.values) : `one of ${list(issue.values)}`}`;
    case 'unrecognized_keys':
      return channel === 'settings:update' && path.length <= 1
        ? `There is no setting called ${list(issue.keys.map((k) => `"${k}"`))}`
        : `${field} has no field called ${list(issue.keys.map((k) => `"${k}"`))}`;
    case 'invalid_format':
      return `${field} is not in the expected form`;
    case 'not_multiple_of':
      return `${field} must be a multiple of ${String(issue.divisor)}`;
    case 'custom': {
      // The schema's own words (a key rule, an address rule, a zone): a sentence stays as it is; a phrase says what
      // the field must be.
      const m = issue.message.trim();
      if (!m) return `${field} is not valid`;
      return /^[A-Z]/.test(m) ? m : `${field} must be ${m}`;
    }
    default:
      return `${field} is not valid`;
  }
}
