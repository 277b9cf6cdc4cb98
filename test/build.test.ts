// `npm run build` produces the main, preload and renderer bundles with no Electron binary present.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '..');

describe('electron-vite build', () => {
  it('builds all three bundles without launching Electron', () => {
    const started = Date.now() - 1000;
    const r = spawnSync('npm', ['run', 'build'], { cwd: root, encoding: 'utf8', env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' } });
    expect(r.status, r.stderr).toBe(0);
    // With the store's checkpointer thread beside main's bundle, where the store starts it from.
    const outputs = ['out/main/index.js', 'out/main/checkpointWorker.js', 'out/preload/index.cjs', 'out/renderer/index.html'];
    for (const f of outputs) {
      const file = path.join(root, f);
      expect(existsSync(file), f).toBe(true);
      expect(statSync(file).mtimeMs, `${f} is fresh`).toBeGreaterThan(started);
    }
    // The sandboxed preload must be self-contained: it may require electron and nothing else.
    const preload = readFileSync(path.join(root, 'out/preload/index.cjs'), 'utf8');
    const requires = [...preload.matchAll(/require\(["']([^"']+)["']\)/g)].map((m) => m[1]);
    expect(new Set(requires)).toEqual(new Set(['electron']));
  }, 120_000);
});
