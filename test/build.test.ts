// `npm run build` produces the main, preload and renderer bundles with no Electron binary present.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';

const root = path.resolve(__dirname, '..');

describe('electron-vite build', () => {
  it('builds all three bundles without launching Electron', () => {
    const started = Date.now() - 1000;
    // Into a folder of its own (`--outDir`, as out/ is laid out: main, preload, renderer), so a second test run at the
    // same time in this checkout cannot empty out/main under this one's reading of it.
    const out = mkdtempSync(path.join(tmpdir(), 'oddsdesk-build-'));
    onTestFinished(() => rmSync(out, { recursive: true, force: true }));
    const r = spawnSync('npm', ['run', 'build', '--', '--outDir', out], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' },
    });
    expect(r.status, r.stderr).toBe(0);
    // With the store's threads (checkpointer, writer) beside main's bundle, where the store starts them from.
    const outputs = [
      'main/index.js',
      'main/checkpointWorker.js',
      'main/writerWorker.js',
      'preload/index.cjs',
      'renderer/index.html',
    ];
    for (const f of outputs) {
      const file = path.join(out, f);
      expect(existsSync(file), f).toBe(true);
      expect(statSync(file).mtimeMs, `${f} is fresh`).toBeGreaterThan(started);
    }
    // The store's threads run as worker threads, where Electron's module cannot load: neither they nor any chunk they
    // share with main's bundle may import it (nor anything but the store's own packages).
    for (const thread of ['checkpointWorker.js', 'writerWorker.js']) {
      const packages = new Set<string>();
      const seen = new Set<string>();
      const visit = (file: string) => {
        if (seen.has(file)) return;
        seen.add(file);
        for (const m of readFileSync(file, 'utf8').matchAll(
          /(?:^|\n)\s*import\s+(?:[^'"]*?from\s+)?["']([^"']+)["']/g,
        )) {
          const spec = m[1]!;
          if (spec.startsWith('.')) visit(path.resolve(path.dirname(file), spec));
          else packages.add(spec);
        }
      };
      visit(path.join(out, 'main', thread));
      expect(
        [...packages].filter((p) => !['better-sqlite3', 'zod'].includes(p) && !p.startsWith('node:')),
        thread,
      ).toEqual([]);
    }
    // The sandboxed preload must be self-contained: it may require electron and nothing else.
    const preload = readFileSync(path.join(out, 'preload/index.cjs'), 'utf8');
    const requires = [...preload.matchAll(/require\(["']([^"']+)["']\)/g)].map((m) => m[1]);
    expect(new Set(requires)).toEqual(new Set(['electron']));
  }, 120_000);
});
