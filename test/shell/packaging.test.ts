// The installer configuration, checked without building (electron-builder cannot download Electron here):
// electron-builder's own schema accepts it, it targets every OS the issue names, and native modules stay outside
// the asar, where they can be loaded.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '../..');
// electron-builder's own parser and validator (its dependencies), so the check is the one `npm run dist` makes.
const require = createRequire(path.join(root, 'package.json'));
const yaml = require('js-yaml') as { load(text: string): unknown };
const { validateConfiguration } = require('app-builder-lib/out/util/config/config') as {
  validateConfiguration(config: unknown, logger: unknown): Promise<void>;
};
const { DebugLogger } = require('builder-util') as { DebugLogger: new (enabled: boolean) => unknown };

interface BuilderConfig {
  appId: string;
  productName: string;
  files: string[];
  asarUnpack: string[];
  linux: { target: string[]; icon: string };
  win: { target: string[] };
  mac: { target: string[] };
}
const config = yaml.load(readFileSync(path.join(root, 'electron-builder.yml'), 'utf8')) as BuilderConfig;

describe('electron-builder configuration', () => {
  it("passes electron-builder's schema", async () => {
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
  });

  it('builds AppImage and deb, nsis and dmg for Oddsdesk', () => {
    expect(config.appId).toBe('desk.odds.app');
    expect(config.productName).toBe('Oddsdesk');
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
    expect(config.win.target).toEqual(['nsis']);
    expect(config.mac.target).toEqual(['dmg']);
  });

  it('packs the built app and unpacks the native modules', () => {
    expect(config.files).toContain('out/**');
    expect(config.asarUnpack).toEqual(expect.arrayContaining(['**/*.node', '**/node_modules/better-sqlite3/**', '**/node_modules/keytar/**']));
  });

  it('has an icon large enough for every target, and a dist script', () => {
    const png = readFileSync(path.join(root, config.linux.icon));
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([512, 512]);
    const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts['dist']).toMatch(/^electron-vite build && electron-builder/);
  });
});
