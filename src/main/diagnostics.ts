// The diagnostics summary a trader copies from Settings and pastes into a support message: versions, OS, what the
// connection is doing, and the last lines of the log. Everything passes the scrubber once more on the way out.
import type { StatusView, UpdateView } from '../shared/ipc/contract';
import type { Scrubber } from '../core/log/scrub';

export interface DiagnosticsInput {
  appVersion: string;
  packaged: boolean;
  versions: { electron?: string; chrome?: string; node: string };
  os: { platform: string; release: string; arch: string };
  status: StatusView | null;
  update: UpdateView;
  logFile: string;
  recentLogLines: string[];
  now: Date;
}

export function diagnosticsSummary(input: DiagnosticsInput, scrubber: Scrubber): string {
  const s = input.status;
  const lines = [
    `Oddsdesk ${input.appVersion}${input.packaged ? '' : ' (development build)'} — diagnostics ${input.now.toISOString()}`,
    `Electron ${input.versions.electron ?? '-'} · Chromium ${input.versions.chrome ?? '-'} · Node ${input.versions.node}`,
    `OS ${input.os.platform} ${input.os.release} ${input.os.arch}`,
    s
      ? `Connection ${s.connection}${s.demo ? ' (DEMO)' : ''} · key ${s.auth} · plan ${s.plan ?? 'unknown'} · quota used ${s.quota.used}${s.quota.limit === null ? '' : `/${s.quota.limit}`}${s.quota.pausedUntil ? ` · paused until ${new Date(s.quota.pausedUntil).toISOString()}` : ''}`
      : 'Connection: no status yet',
    s
      ? `Streams ${s.streams.length}: ${
          Object.entries(countBy(s.streams.map((x) => x.state)))
            .map(([k, n]) => `${n} ${k}`)
            .join(', ') || 'none'
        }`
      : null,
    s?.restricted.length
      ? `Restricted by plan: ${s.restricted.map((r) => `${r.path} (needs ${r.requiredPlan})`).join(', ')}`
      : null,
    s?.lastSettledSync ? `Last settlement sync ${new Date(s.lastSettledSync).toISOString()}` : null,
    s?.lastError ? `Last error (${s.lastError.kind}): ${s.lastError.message}` : null,
    `Updates: ${input.update.state}${input.update.version ? ` ${input.update.version}` : ''}${input.update.message ? ` — ${input.update.message}` : ''}`,
    `Log file: ${input.logFile}`,
    '',
    `Last ${input.recentLogLines.length} log lines:`,
    ...input.recentLogLines,
  ].filter((l) => l !== null);
  return scrubber.text(lines.join('\n'));
}

function countBy(values: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const v of values) out[v] = (out[v] ?? 0) + 1;
  return out;
}
