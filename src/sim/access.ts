// Who may call the simulator and how often: API keys with their plan and account preferences, the hourly quota per
// key on the simulated clock, and the fault switches (global or per key) that tests and demos turn on.
import type { DevigModel, Plan } from '../shared/api';
import { Prng } from './prng';

export interface Faults {
  /** Close every open stream connection this often (real ms). */
  dropStreamEveryMs?: number;
  /** Once, from when it is set: keep stream connections open but send nothing (no pings) for this long (real ms). */
  stallStreamMs?: number;
  /** 0..1 share of API answers replaced by 500/502/503. */
  serverErrorRate?: number;
  /** Added before every API answer (real ms). */
  latencyMs?: number;
  /** 0..1 share of JSON answers with one record made invalid (or broken JSON when there is no record). */
  malformedRate?: number;
  /** For this many real seconds, from when it is set, answer 429 to every authenticated request. */
  rateLimitStormS?: number;
  /** Retry-After (real seconds) to send with 429; default: until the key's hourly window resets. */
  retryAfterS?: number;
  /** Send X-RateLimit-* headers; overrides the simulator's option. */
  rateLimitHeaders?: boolean;
  /**
   * Flapping streams: every stream connection is dropped (socket destroyed, no `end`) this many SIMULATED seconds
   * after its opening (snapshot or replay) went out; 0 = right after it. Works on the manual clock.
   */
  flapStreamS?: number;
}

/** A fault set as stored: the one-shot windows are turned into real instants when they are switched on. */
export interface ActiveFaults extends Faults {
  stallUntilRealMs?: number;
  stormUntilRealMs?: number;
}

export interface KeyRecord {
  key: string;
  /** Stable id for logs: never the key itself. */
  id: string;
  plan: Plan;
  quotaPerHour: number;
  model: DevigModel | null;
  windowIndex: number;
  used: number;
}

export interface QuotaVerdict {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix seconds (simulated) when the window resets. */
  resetSec: number;
  /** Simulated seconds until the reset. */
  secondsToReset: number;
}

const HOUR_S = 3600;

export class Access {
  private readonly byKey = new Map<string, KeyRecord>();
  private readonly rng: Prng;
  private nextId = 1;
  private globalFaults: ActiveFaults = {};
  private readonly keyFaults = new Map<string, ActiveFaults>();

  constructor(
    seed: number,
    private readonly defaultQuota: number,
  ) {
    // Keys come from their own generator so that issuing one never shifts the world's random stream.
    this.rng = new Prng(seed ^ 0x5eed);
  }

  add(plan: Plan, options: { key?: string; quotaPerHour?: number; model?: DevigModel | null } = {}): KeyRecord {
    const key = options.key ?? this.freshKey(plan);
    const record: KeyRecord = {
      key,
      id: `key-${this.nextId++}`,
      plan,
      quotaPerHour: options.quotaPerHour ?? this.defaultQuota,
      model: options.model ?? null,
      windowIndex: -1,
      used: 0,
    };
    this.byKey.set(key, record);
    return record;
  }

  private freshKey(plan: Plan): string {
    let key: string;
    do {
      key = `sim-${plan}-${Array.from({ length: 24 }, () => this.rng.int(0, 15).toString(16)).join('')}`;
    } while (this.byKey.has(key));
    return key;
  }

  get(key: string | undefined): KeyRecord | null {
    return key === undefined ? null : (this.byKey.get(key) ?? null);
  }

  list(): KeyRecord[] {
    return [...this.byKey.values()];
  }

  /** The old key stops working at once; plan, quota use and preferences move to the new key. */
  regenerate(oldKey: string): string {
    const old = this.byKey.get(oldKey);
    if (!old) throw new Error('unknown key');
    this.byKey.delete(oldKey);
    const key = this.freshKey(old.plan);
    this.byKey.set(key, { ...old, key, id: `key-${this.nextId++}` });
    const faults = this.keyFaults.get(oldKey);
    if (faults) {
      this.keyFaults.delete(oldKey);
      this.keyFaults.set(key, faults);
    }
    return key;
  }

  revoke(key: string): void {
    if (!this.byKey.delete(key)) throw new Error('unknown key');
    this.keyFaults.delete(key);
  }

  /** Counts one request against the key's hourly window; windows are whole simulated clock hours. */
  count(record: KeyRecord, simMs: number): QuotaVerdict {
    const nowSec = Math.floor(simMs / 1000);
    const windowIndex = Math.floor(nowSec / HOUR_S);
    if (windowIndex !== record.windowIndex) {
      record.windowIndex = windowIndex;
      record.used = 0;
    }
    record.used++;
    const resetSec = (windowIndex + 1) * HOUR_S;
    return {
      allowed: record.used <= record.quotaPerHour,
      limit: record.quotaPerHour,
      remaining: Math.max(0, record.quotaPerHour - record.used),
      resetSec,
      secondsToReset: resetSec - nowSec,
    };
  }

  /** Replaces the fault set of one key, or the global one; `{}` clears it. */
  setFaults(faults: Faults, key: string | undefined, realNowMs: number): void {
    // Only the switches actually given are stored, so a key's set layers over the global one field by field.
    const active: ActiveFaults = Object.fromEntries(
      Object.entries(faults).filter(([, v]) => v !== undefined && v !== null),
    );
    if (faults.stallStreamMs) active.stallUntilRealMs = realNowMs + faults.stallStreamMs;
    if (faults.rateLimitStormS) active.stormUntilRealMs = realNowMs + faults.rateLimitStormS * 1000;
    if (key === undefined) this.globalFaults = active;
    else {
      if (!this.byKey.has(key)) throw new Error('unknown key');
      this.keyFaults.set(key, active);
    }
  }

  /** The faults in force for a key: its own switches over the global ones. */
  faultsFor(key: string | null): ActiveFaults {
    const own = key === null ? undefined : this.keyFaults.get(key);
    return own ? { ...this.globalFaults, ...own } : this.globalFaults;
  }
}
