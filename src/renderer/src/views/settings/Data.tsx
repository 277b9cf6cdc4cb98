// Settings, Data: how long history is kept, the history file's size by kind of history, and "compact now".
import { useState } from 'react';
import type { StorageKind } from '../../../../shared/domain';
import { host } from '../../host';
import { Time } from '../../components/Time';
import { useQuery } from '../../hooks';
import { useStore } from '../../store';
import { NumberRow, Row, type SettingsSectionProps } from './Row';

const KIND_LABEL: Record<StorageKind, string> = {
  rawTicks: 'Odds ticks, full detail',
  bars: 'Odds history, one-minute bars',
  maxWinPoints: 'max stake change points',
  specials: 'Specials and outrights',
  settlements: 'Settlements and results',
  alerts: 'Alerts',
  other: 'Events, lines, settings',
  free: 'Free (reused before the file grows)',
};

function fmtBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = n / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v < 10 ? v.toFixed(1) : Math.round(v)} ${units[u]}`;
}

/** The history file's size, what each kind of history takes, and "compact now". */
function StorageUsage() {
  const toast = useStore((s) => s.toast);
  const { data: usage, error, reload } = useQuery('usage', () => host.invoke('store:usage'));
  const [busy, setBusy] = useState(false);
  const compact = async () => {
    setBusy(true);
    const r = await host.invoke('store:compact');
    setBusy(false);
    reload();
    if (!r.ok) return toast(`Compaction failed: ${r.error.message}`, 'error');
    const n = r.value.ticksCompacted.toLocaleString();
    toast(
      r.value.done
        ? `Compacted ${n} ticks; nothing older than the full-detail window is left raw`
        : `Compacted ${n} ticks; more remains and continues in the background`,
      'info',
    );
  };
  if (error) return <span className="status-error">The database size is not available: {error.message}</span>;
  if (!usage) return <span className="muted">Measuring…</span>;
  return (
    <div data-testid="storage-usage">
      <div>
        <strong data-testid="storage-total">{fmtBytes(usage.fileBytes + usage.walBytes)}</strong>
        {usage.walBytes > 0 && <span className="muted"> (of which {fmtBytes(usage.walBytes)} write-ahead log)</span>}
        {!usage.exact && <span className="muted"> · estimated</span>}
      </div>
      <table className="grid">
        <tbody>
          {usage.kinds
            .filter((k) => k.bytes > 0)
            .map((k) => (
              <tr key={k.kind} data-testid={`storage-${k.kind}`}>
                <td>{KIND_LABEL[k.kind]}</td>
                <td className="num">{fmtBytes(k.bytes)}</td>
              </tr>
            ))}
        </tbody>
      </table>
      {usage.oldestRawTickAt !== null && (
        <div className="muted small-text">
          Full tick detail since <Time ms={usage.oldestRawTickAt} withDate />
        </div>
      )}
      <button onClick={() => void compact()} disabled={busy} data-testid="compact-now">
        {busy ? 'Compacting…' : 'Compact now'}
      </button>{' '}
      <button onClick={reload} disabled={busy}>
        Refresh
      </button>
    </div>
  );
}

/** How long history is kept, in detail and at all; the file it is kept in; how often settlements are fetched. */
export function DataSection({ settings }: Pick<SettingsSectionProps, 'settings'>) {
  return (
    <>
      <h2>Data</h2>
      <NumberRow
        label="Keep tick history for"
        hint="Older odds history is deleted; settlements, specials, alerts and max stake change points are kept."
        settings={settings}
        setting="retentionDays"
      />
      <NumberRow
        label="Full tick detail for"
        hint="Older odds ticks are compacted into one-minute bars (open, high, low, close); every max stake change is kept exactly."
        settings={settings}
        setting="rawTickHours"
      />
      <Row label="Database" hint="The history file on this computer and what each kind of history takes in it.">
        <StorageUsage />
      </Row>
      <NumberRow label="Settlement sync every" settings={settings} setting="settledEverySeconds" />
    </>
  );
}
