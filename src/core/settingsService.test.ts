// The odds format and the time zone as settings: what the contract lets through, the defaults (decimal; the OS
// zone), and what survives a restart through settings.json.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { systemTimeZone } from '../shared/formats';
import { requestSchemas } from '../shared/ipc/contract';
import { createSettingsService } from './settingsService';

const dirs: string[] = [];
const dataDir = () => {
  const d = mkdtempSync(path.join(tmpdir(), 'oddsdesk-settings-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const patch = (p: unknown) => requestSchemas['settings:update'].safeParse([p]);

describe('settings:update odds format and time zone', () => {
  it('takes the seven formats and nothing else', () => {
    for (const f of ['decimal', 'american', 'fractional', 'hongkong', 'malay', 'indonesian', 'implied'])
      expect(patch({ oddsFormat: f }).success, f).toBe(true);
    for (const f of ['us', 'Decimal', '', 3]) expect(patch({ oddsFormat: f }).success, String(f)).toBe(false);
  });

  it('takes IANA zone names in their canonical spelling, and refuses offsets and made-up names', () => {
    const ok = patch({ timeZone: 'asia/tokyo' });
    expect(ok.success && ok.data[0].timeZone).toBe('Asia/Tokyo');
    for (const z of ['+09:00', 'Mars/Olympus_Mons', 'Europe/London<script>', '', 'x'.repeat(65)])
      expect(patch({ timeZone: z }).success, z).toBe(false);
  });
});

describe('settings service', () => {
  it('starts decimal, in the OS zone', () => {
    const s = createSettingsService({ dataDir: null }).get();
    expect(s.oddsFormat).toBe('decimal');
    expect(s.timeZone).toBe(systemTimeZone());
  });

  it('keeps the chosen format and zone across a restart', () => {
    const dir = dataDir();
    createSettingsService({ dataDir: dir }).update({ oddsFormat: 'malay', timeZone: 'Asia/Tokyo' });
    const again = createSettingsService({ dataDir: dir }).get();
    expect(again.oddsFormat).toBe('malay');
    expect(again.timeZone).toBe('Asia/Tokyo');
  });

  it('a subscriber that throws keeps neither the change nor the other subscribers from it', () => {
    const reported = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const settings = createSettingsService({ dataDir: null });
      settings.subscribe(() => {
        throw new Error('a subscriber failed');
      });
      const seen: string[] = [];
      settings.subscribe((next, previous) => seen.push(`${previous.oddsFormat} -> ${next.oddsFormat}`));
      expect(settings.update({ oddsFormat: 'american' }).oddsFormat).toBe('american');
      expect(seen).toEqual(['decimal -> american']);
      expect(reported).toHaveBeenCalledWith(expect.stringContaining('a subscriber failed'));
    } finally {
      reported.mockRestore();
    }
  });

  it('does not write the OS zone, so the default keeps following the machine', () => {
    const dir = dataDir();
    createSettingsService({ dataDir: dir }).update({ oddsFormat: 'american' });
    const saved = JSON.parse(readFileSync(path.join(dir, 'settings.json'), 'utf8')) as Record<string, unknown>;
    expect(saved['oddsFormat']).toBe('american');
    expect('timeZone' in saved).toBe(false);
  });

  it('sets aside a hand-edited format or zone it does not know', () => {
    const dir = dataDir();
    writeFileSync(
      path.join(dir, 'settings.json'),
      JSON.stringify({ oddsFormat: 'klingon', timeZone: 'Nowhere/Land', theme: 'light' }),
    );
    const s = createSettingsService({ dataDir: dir }).get();
    expect(s.oddsFormat).toBe('decimal');
    expect(s.timeZone).toBe(systemTimeZone());
    expect(s.theme).toBe('light');
    writeFileSync(path.join(dir, 'settings.json'), JSON.stringify({ timeZone: 'america/new_york' }));
    expect(createSettingsService({ dataDir: dir }).get().timeZone).toBe('America/New_York');
  });
});
