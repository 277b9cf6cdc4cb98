// Query validation with the service's 422 shape: every rule of the spec and of docs/service/assumptions.md, each broken rule one
// issue `{loc: ["query", name], msg, type}`, all issues of a request reported together.
import type { DevigModel } from '../shared/api';
import { DEVIG_MODELS, FLAG_VALUES, SETTLED_LIMIT, parseServiceTime } from '../shared/api';

export interface ValidationIssue {
  loc: [string, string];
  msg: string;
  type: string;
}

const INTEGER = /^-?\d+$/;

/** Reads typed query parameters and collects the issues of the ones that break their rule. */
export class QueryReader {
  readonly issues: ValidationIssue[] = [];

  constructor(private readonly query: URLSearchParams) {}

  private fail(name: string, msg: string, type: string): null {
    this.issues.push({ loc: ['query', name], msg, type });
    return null;
  }

  private raw(name: string): string | null {
    return this.query.get(name);
  }

  requiredInt(name: string): number | null {
    const v = this.raw(name);
    if (v === null || v === '') return this.fail(name, 'Field required', 'missing');
    return this.parseInt(name, v);
  }

  optionalInt(name: string): number | null {
    const v = this.raw(name);
    return v === null ? null : this.parseInt(name, v);
  }

  private parseInt(name: string, v: string): number | null {
    if (!INTEGER.test(v) || !Number.isSafeInteger(Number(v))) {
      return this.fail(name, 'Input should be a valid integer, unable to parse string as an integer', 'int_parsing');
    }
    return Number(v);
  }

  /** Flags accept exactly `1`, `true`, `false`; absent means no restriction. */
  flag(name: string): boolean {
    const v = this.raw(name);
    if (v === null) return false;
    if (!(FLAG_VALUES as readonly string[]).includes(v)) {
      this.fail(name, `Input should be one of ${FLAG_VALUES.join(', ')}`, 'bool_parsing');
      return false;
    }
    return v !== 'false';
  }

  limit(name: string): number {
    const v = this.optionalInt(name);
    if (v === null) return SETTLED_LIMIT.default;
    if (v < SETTLED_LIMIT.min)
      this.fail(name, `Input should be greater than or equal to ${SETTLED_LIMIT.min}`, 'greater_than_equal');
    else if (v > SETTLED_LIMIT.max)
      this.fail(name, `Input should be less than or equal to ${SETTLED_LIMIT.max}`, 'less_than_equal');
    return v;
  }

  model(name: string): DevigModel | null {
    const v = this.raw(name);
    if (v === null) return null;
    if (!(DEVIG_MODELS as readonly string[]).includes(v)) {
      return this.fail(name, `Input should be ${DEVIG_MODELS.map((m) => `'${m}'`).join(', ')}`, 'enum');
    }
    return v as DevigModel;
  }

  /** `since` as Unix seconds: an integer cursor, or an ISO date-time (UTC when it has no zone). */
  since(name: string): number | null {
    const v = this.raw(name);
    if (v === null) return null;
    if (INTEGER.test(v)) return Number(v);
    const ms = parseServiceTime(v);
    if (ms === null)
      return this.fail(name, 'Input should be an integer cursor or a date-time YYYY-MM-DDTHH:MM:SS', 'value_error');
    return Math.floor(ms / 1000);
  }
}
