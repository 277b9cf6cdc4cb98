// The installer configuration, checked without building (electron-builder cannot download Electron here):
// electron-builder's own schema accepts it, it targets every OS the issue names, native modules stay outside the
// asar where they can be loaded, the fuses it flips into the packaged binary are the ones we want, and the
// native rebuild step `npm run dist` uses leaves the Node build the tests load untouched.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

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
  extraResources: Array<{ from: string; to: string; filter: string[] }>;
  npmRebuild: boolean;
  electronFuses: Record<string, boolean>;
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

  it('packs the built app without browser mode or native sources, and unpacks only native binaries', () => {
    expect(config.files).toContain('out/**');
    expect(config.files).toContain('!out/web/**');
    expect(config.files).toContain('!node_modules/better-sqlite3/{src,deps,build,docs}/**');
    expect(config.asarUnpack).toEqual(['**/*.node']);
    // Our Electron build of better-sqlite3, staged by electron-native.mjs --stage, beside the asar.
    expect(config.extraResources).toEqual([{ from: '.native/stage', to: 'native', filter: ['better_sqlite3.node'] }]);
  });

  it('has an icon large enough for every target, and a dist script', () => {
    const png = readFileSync(path.join(root, config.linux.icon));
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([512, 512]);
    const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts['dist']).toMatch(
      /^node scripts\/electron-native\.mjs --stage && electron-vite build && electron-builder/,
    );
  });
});

// What a real Electron binary carries: the sentinel, the wire version (1), the wire length, then one byte per fuse
// ('1' on, '0' off) in Electron's order. These are Electron's defaults, which the packaged app must change.
const { FuseState, FuseV1Options, SENTINEL } = {
  ...require('@electron/fuses'),
  ...require('@electron/fuses/dist/constants'),
} as {
  FuseState: Record<'ENABLE' | 'DISABLE', number>;
  FuseV1Options: Record<string, number>;
  SENTINEL: string;
};
const { getCurrentFuseWire, flipFuses } = require('@electron/fuses') as {
  getCurrentFuseWire(file: string): Promise<Record<number, number>>;
  flipFuses(file: string, config: unknown): Promise<number>;
};
const { PlatformPackager } = require('app-builder-lib') as {
  PlatformPackager: { prototype: { generateFuseConfig(f: unknown): Promise<unknown> } };
};

const WANTED_FUSES: Record<string, boolean> = {
  RunAsNode: false,
  EnableNodeOptionsEnvironmentVariable: false,
  EnableNodeCliInspectArguments: false,
  OnlyLoadAppFromAsar: true,
  EnableEmbeddedAsarIntegrityValidation: true,
  GrantFileProtocolExtraPrivileges: false,
  EnableCookieEncryption: true,
};

function expectWanted(wire: Record<number, number>) {
  for (const [name, on] of Object.entries(WANTED_FUSES)) {
    expect(wire[FuseV1Options[name]!], name).toBe(on ? FuseState.ENABLE : FuseState.DISABLE);
  }
}

const tmp = mkdtempSync(path.join(tmpdir(), 'oddsdesk-packaging-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('Electron fuses of the packaged app', () => {
  it('are flipped by electron-builder as configured: no run-as-node, NODE_OPTIONS or inspect; asar only, with integrity', async () => {
    // Electron 39's defaults: RunAsNode on, cookie encryption off, NODE_OPTIONS on, inspect on, asar integrity off,
    // only-asar off, browser snapshot off, file:// privileges on.
    const binary = path.join(tmp, 'oddsdesk');
    writeFileSync(
      binary,
      Buffer.concat([
        Buffer.from('\x7fELF…code…'),
        Buffer.from(SENTINEL),
        Buffer.from([1, 8]),
        Buffer.from('10110001'),
        Buffer.from('…more code'),
      ]),
    );
    expect(await getCurrentFuseWire(binary)).toMatchObject({ [FuseV1Options['RunAsNode']!]: FuseState.ENABLE });
    // The same two steps electron-builder takes after packing (PlatformPackager.doAddElectronFuses).
    const fuseConfig = await PlatformPackager.prototype.generateFuseConfig.call(null, config.electronFuses);
    expect(await flipFuses(binary, fuseConfig)).toBe(1);
    expectWanted(await getCurrentFuseWire(binary));
  });

  it('are what a packaged build on this machine carries (when one exists in release/)', async (ctx) => {
    const release = path.join(root, 'release');
    const unpacked = existsSync(release) ? readdirSync(release).filter((d) => d.endsWith('-unpacked')) : [];
    const exe = unpacked
      .map((d) => path.join(release, d, process.platform === 'win32' ? 'Oddsdesk.exe' : 'oddsdesk'))
      .find((f) => existsSync(f));
    if (!exe) {
      console.log('skipped: no packaged build in release/ (run npm run dist on a machine with the network)');
      ctx.skip();
      return;
    }
    expectWanted(await getCurrentFuseWire(exe));
  });
});

describe('the native rebuild step of npm run dist', () => {
  const nodeBinding = path.join(root, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node');
  const hash = (f: string) => createHash('sha256').update(readFileSync(f)).digest('hex');
  const electronAbi = () => readFileSync(path.join(root, 'node_modules/electron/abi_version'), 'utf8').trim();
  const bindingAbisOf = async (f: string) => {
    // @ts-expect-error: a plain .mjs script without types
    const { bindingAbis } = (await import('../../scripts/electron-native.mjs')) as {
      bindingAbis: (b: Buffer) => string[];
    };
    return bindingAbis(readFileSync(f));
  };

  // The step runs once (minutes when it really builds); the two tests below read its outcome.
  const nativeDir = path.join(tmp, 'native');
  let rebuild: { status: number | null; stdout: string; stderr: string; nodeBefore: string } | null = null;
  const rebuilt = () => {
    if (rebuild) return rebuild;
    const nodeBefore = hash(nodeBinding);
    const r = spawnSync(process.execPath, [path.join(root, 'scripts/electron-native.mjs'), '--stage'], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, ODDSDESK_NATIVE_DIR: nativeDir },
      timeout: 20 * 60_000,
    });
    rebuild = { status: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '', nodeBefore };
    return rebuild;
  };

  it('electron-builder rebuilds nothing in node_modules', () => {
    expect(config.npmRebuild).toBe(false);
  });

  it('tells a Node build from an Electron one, so a build against the wrong headers is never kept', async () => {
    expect(await bindingAbisOf(nodeBinding)).toEqual([process.versions.modules]);
    expect(await bindingAbisOf(nodeBinding)).not.toContain(electronAbi());
  });

  it(
    'builds in a copy: after it, built or not, the Node build is unchanged and better-sqlite3 loads under Node',
    () => {
      const r = rebuilt();
      expect(hash(nodeBinding)).toBe(r.nodeBefore);
      // What npm test does first with the store: open a database under plain Node.
      const load = spawnSync(
        process.execPath,
        [
          '-e',
          "const D=require('better-sqlite3');const d=new D(':memory:');console.log(d.prepare('select sqlite_version() v').get().v)",
        ],
        {
          cwd: root,
          encoding: 'utf8',
        },
      );
      expect(load.status, load.stderr).toBe(0);
      expect(load.stdout.trim()).toMatch(/^3\.\d+\.\d+$/);
    },
    20 * 60_000,
  );

  it(
    'stages an Electron build of better-sqlite3 for electron-builder (skipped, saying why, on a machine without the network)',
    async (ctx) => {
      const r = rebuilt();
      if (r.status !== 0) {
        const out = `${r.stdout}\n${r.stderr}`;
        // Only the want of the network is a reason not to build here (no prebuilt binary, no Electron headers to
        // fetch); any other failure (a compile error, a wrong ABI) is a broken build and fails this test.
        const offline = /ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|network connectivity/.test(
          out,
        );
        expect(offline, `the Electron build failed, and not for want of the network:\n${out.slice(-4000)}`).toBe(true);
        // Even then it fails cleanly: it says node_modules was left alone, and leaves no half-built copy.
        expect(r.stderr).toMatch(/Could not build better-sqlite3 for Electron .*Nothing in node_modules was changed/);
        expect(readdirSync(nativeDir)).toEqual([]);
        console.log(
          'skipped: this machine cannot fetch a prebuilt better-sqlite3 or the Electron headers (no network); npm run dist builds it where it can',
        );
        ctx.skip();
        return;
      }
      const staged = path.join(nativeDir, 'stage', 'better_sqlite3.node');
      expect(existsSync(staged), r.stdout).toBe(true);
      expect(await bindingAbisOf(staged)).toContain(electronAbi());
    },
    20 * 60_000,
  );
});
