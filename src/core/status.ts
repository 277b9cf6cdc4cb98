// Pure projections of the request governor's state for the hosts: the status bar's QuotaView, and the account of
// requests that `cli record` prints at stop (a line on stderr for the trader, a JSON line on stdout for scripts),
// with the requests the governor refused for being over their purpose's share.
import type { QuotaView } from '../shared/ipc/contract';
import { emptyByPurpose, PURPOSE_LABELS, PURPOSES, type RequestCounts } from '../shared/requests';
import type { GovernorState } from './api/governor';

/** The quota as the status bar and the Coverage view show it; `gov` is undefined while nothing is connected. */
export function quotaView(gov: GovernorState | undefined): QuotaView {
  if (!gov) {
    return {
      used: 0,
      remaining: null,
      limit: null,
      resetAt: null,
      pausedUntil: null,
      source: null,
      byPurpose: emptyByPurpose(),
      rateLimited: 0,
      refused: emptyByPurpose(),
      retryAfterClampedFromS: null,
      clockSkewMs: null,
    };
  }
  return {
    used: gov.quota.used,
    remaining: gov.quota.remaining,
    limit: gov.quota.limit,
    resetAt: gov.quota.resetAt,
    pausedUntil: gov.pausedUntil,
    source: gov.quota.source,
    byPurpose: { ...gov.requests.hour.byPurpose },
    rateLimited: gov.requests.hour.rateLimited,
    refused: { ...gov.requests.hour.refused },
    retryAfterClampedFromS: gov.pausedUntil !== null && gov.retryAfterClamp ? gov.retryAfterClamp.statedS : null,
    clockSkewMs: gov.clockSkewMs,
  };
}

export interface RequestsLine {
  type: 'requests';
  total: number;
  rate_limited: number;
  by_purpose: Record<string, number>;
  /** Requests refused by the governor for being over their purpose's share: never sent, so not in `total`. */
  refused: Record<string, number>;
}

/**
 * The last stdout line of `cli record`: every request of the run (not only the last hour), by purpose, and the
 * requests refused over their purpose's share. Every purpose is listed, zeros included, so a script can read any key
 * without checking for it.
 */
export function requestsLine(gov: GovernorState): RequestsLine {
  const s: RequestCounts = gov.requests.session;
  const byPurpose: Record<string, number> = {};
  const refused: Record<string, number> = {};
  for (const p of PURPOSES) {
    byPurpose[p] = s.byPurpose[p];
    refused[p] = s.refused[p];
  }
  return { type: 'requests', total: s.total, rate_limited: s.rateLimited, by_purpose: byPurpose, refused };
}

/**
 * The same account for the trader on stderr: "412 requests (3 answered 429; …): checking for settlements 240, price streams opened 12, …;
 * refused over their share: specials 40".
 */
export function requestsSummary(gov: GovernorState): string {
  const s = gov.requests.session;
  const parts = PURPOSES.filter((p) => s.byPurpose[p] > 0).map((p) => `${PURPOSE_LABELS[p]} ${s.byPurpose[p]}`);
  const refused = PURPOSES.filter((p) => s.refused[p] > 0).map((p) => `${PURPOSE_LABELS[p]} ${s.refused[p]}`);
  const quota =
    gov.quota.source === 'headers' ? "limit from the service's headers" : `limit ${gov.quota.limit}/h from the setting`;
  return (
    `${s.total} request${s.total === 1 ? '' : 's'} (${s.rateLimited} answered 429; ${quota})${parts.length ? `: ${parts.join(', ')}` : ''}` +
    (refused.length ? `; refused over their share: ${refused.join(', ')}` : '')
  );
}
