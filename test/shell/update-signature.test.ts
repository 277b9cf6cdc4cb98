// On Linux an update is installed only when its Ed25519 signature (in the feed's latest-linux.yml) verifies against
// the release key pinned in the app; otherwise Settings says a new version exists and where to get it, and install
// refuses. The key pair is made here, per run: no key of any real release is involved.
import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createUpdates,
  downloadPlaceFrom,
  linuxSignatureCheck,
  signatureProblem,
  UPDATE_KEY_FILE,
  type LinuxSignatureCheck,
  type UpdateInfoLike,
  type UpdaterLike,
} from '../../src/main/updates';
// @ts-expect-error: a plain .mjs script without types
import { signUpdateInfo as untypedSign } from '../../scripts/sign-update.mjs';

const signUpdateInfo = untypedSign as (yml: string, dir: string, privatePem: string, pinned?: string | null) => { text: string; signed: string[] };
const root = path.resolve(__dirname, '../..');
const yaml = createRequire(path.join(root, 'package.json'))('js-yaml') as { load(text: string): unknown };

const pem = (k: KeyObject) => k.export({ type: k.type === 'public' ? 'spki' : 'pkcs8', format: 'pem' }).toString();
const release = generateKeyPairSync('ed25519');
const stranger = generateKeyPairSync('ed25519');
const PUBLIC = pem(release.publicKey);

const dir = mkdtempSync(path.join(tmpdir(), 'oddsdesk-update-sig-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const APPIMAGE = 'Oddsdesk-0.2.0.AppImage';
const appImage = Buffer.from(`#!/bin/sh\n# Oddsdesk 0.2.0 ${'x'.repeat(4096)}\n`);
/** latest-linux.yml as electron-builder writes it (sha512 of the file; no signature until the release owner signs). */
const latestLinuxYml = (file = APPIMAGE) =>
  `version: 0.2.0\nfiles:\n  - url: ${file}\n    sha512: c2hhNTEy\n    size: ${appImage.length}\n    blockMapSize: 100\npath: ${file}\nsha512: c2hhNTEy\nreleaseDate: '2025-01-02T03:04:05.000Z'\n`;
const signatureOf = (data: Buffer, key = release.privateKey) => sign(null, data, key).toString('base64');
const infoWith = (signature?: string): UpdateInfoLike => ({ version: '0.2.0', files: [{ url: APPIMAGE, ...(signature === undefined ? {} : { ed25519Signature: signature }) }] });

/**
 * electron-updater as the app sees it: the feed offers `info`; downloading writes `fileBytes` to its cache and says
 * so with `downloadedFile`, as AppImageUpdater does.
 */
function fakeUpdater(info: UpdateInfoLike, fileBytes: Buffer) {
  const calls: string[] = [];
  const feed = { info, fileBytes };
  class FakeUpdater extends EventEmitter {
    autoDownload = true;
    autoInstallOnAppQuit = true;
    async checkForUpdates() {
      calls.push('check');
      this.emit('checking-for-update');
      this.emit('update-available', feed.info);
    }
    async downloadUpdate() {
      calls.push('download');
      const downloaded = path.join(dir, `pending-${Math.random().toString(36).slice(2)}`, path.basename(feed.info.files![0]!.url));
      mkdirSync(path.dirname(downloaded), { recursive: true });
      writeFileSync(downloaded, feed.fileBytes);
      this.emit('download-progress', { percent: 100 });
      this.emit('update-downloaded', { ...feed.info, downloadedFile: downloaded });
      return [downloaded];
    }
    quitAndInstall() {
      calls.push('install');
    }
  }
  return { updater: new FakeUpdater() as unknown as UpdaterLike & EventEmitter, calls, feed };
}

const FEED = 'provider: generic\nurl: https://updates.example/oddsdesk\nupdaterCacheDirName: oddsdesk-updater\n';
const linuxCheck = (publicKey: string | null): LinuxSignatureCheck => ({
  publicKey,
  readFile: async (f) => readFileSync(f),
  downloadPlace: downloadPlaceFrom(FEED),
});

/** Check, then ask to install, as Settings does; what the updater was asked to do, and what Settings shows. */
async function checkAndInstall(info: UpdateInfoLike, fileBytes: Buffer, publicKey: string | null) {
  const fake = fakeUpdater(info, fileBytes);
  const updates = createUpdates('0.1.0', fake.updater, (t) => t, linuxCheck(publicKey));
  const offered = await updates.check();
  const view = await updates.install(async () => void fake.calls.push('shutdown'));
  return { calls: fake.calls, offered, view, updates };
}

describe('the signature rule', () => {
  it('passes exactly the signed bytes, signed by the pinned key', () => {
    expect(signatureProblem(appImage, signatureOf(appImage), PUBLIC)).toBeNull();
  });

  it('refuses a tampered file, another key, a missing or malformed signature, and no pinned key', () => {
    const tampered = Buffer.from(appImage);
    tampered[100] = tampered[100]! ^ 1;
    expect(signatureProblem(tampered, signatureOf(appImage), PUBLIC)).toBe('its signature does not match the release key');
    expect(signatureProblem(appImage, signatureOf(appImage, stranger.privateKey), PUBLIC)).toBe('its signature does not match the release key');
    expect(signatureProblem(appImage, undefined, PUBLIC)).toBe('the update carries no signature');
    expect(signatureProblem(appImage, 'not base64!', PUBLIC)).toBe('its signature is not base64');
    expect(signatureProblem(appImage, Buffer.alloc(32).toString('base64'), PUBLIC)).toBe('its signature is not an Ed25519 signature');
    expect(signatureProblem(appImage, signatureOf(appImage), null)).toBe('this build has no release key to check it with');
    const rsa = pem(generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey);
    expect(signatureProblem(appImage, signatureOf(appImage), rsa)).toBe("this build's release key is not an Ed25519 key");
  });
});

describe('Linux updates', () => {
  it('a download whose signature verifies against the pinned key is installed, after the app has closed cleanly', async () => {
    const { calls, offered, view } = await checkAndInstall(infoWith(signatureOf(appImage)), appImage, PUBLIC);
    expect(offered).toMatchObject({ state: 'available', version: '0.2.0' });
    expect(calls).toEqual(['check', 'download', 'shutdown', 'install']);
    expect(view).toMatchObject({ state: 'ready', version: '0.2.0' });
  });

  it('a tampered download (the feed served other bytes under the same name) is not installed; Settings says where to get the version', async () => {
    const tampered = Buffer.concat([appImage, Buffer.from('payload')]);
    const { calls, view, updates } = await checkAndInstall(infoWith(signatureOf(appImage)), tampered, PUBLIC);
    expect(calls).toEqual(['check', 'download']);
    expect(view.state).toBe('manual');
    expect(view.version).toBe('0.2.0');
    expect(view.message).toBe(
      'Download it from https://updates.example/oddsdesk/Oddsdesk-0.2.0.AppImage and install it yourself: this build installs an update only when its signature checks against the release key, and its signature does not match the release key.',
    );
    // Asking again installs nothing.
    expect((await updates.install(async () => void calls.push('shutdown'))).state).toBe('manual');
    expect(calls).toEqual(['check', 'download']);
  });

  it('a download signed with another key, or with no signature, is not installed', async () => {
    const other = await checkAndInstall(infoWith(signatureOf(appImage, stranger.privateKey)), appImage, PUBLIC);
    expect(other.calls).not.toContain('install');
    expect(other.view).toMatchObject({ state: 'manual', message: expect.stringMatching(/does not match the release key\.$/) });
    const unsigned = await checkAndInstall(infoWith(), appImage, PUBLIC);
    expect(unsigned.calls).not.toContain('install');
    expect(unsigned.view).toMatchObject({ state: 'manual', message: expect.stringMatching(/carries no signature\.$/) });
  });

  it('without a pinned key: "available, install it by hand" at once, nothing downloaded, install refused', async () => {
    const { calls, offered, view } = await checkAndInstall(infoWith(signatureOf(appImage)), appImage, null);
    expect(offered).toMatchObject({ state: 'manual', version: '0.2.0' });
    expect(offered.message).toMatch(/^Download it from https:\/\/updates\.example\/oddsdesk\/Oddsdesk-0\.2\.0\.AppImage and install it yourself: .*no release key/);
    expect(view.state).toBe('manual');
    expect(calls).toEqual(['check']);
  });

  it('an app pinned to another key installs nothing, even a download the release key signed', async () => {
    const { calls, view } = await checkAndInstall(infoWith(signatureOf(appImage)), appImage, pem(stranger.publicKey));
    expect(calls).toEqual(['check', 'download']);
    expect(view).toMatchObject({ state: 'manual', message: expect.stringMatching(/does not match the release key\.$/) });
  });

  it('after a refused download, the next version the feed offers is downloaded and checked afresh', async () => {
    const fake = fakeUpdater(infoWith(signatureOf(appImage)), Buffer.from('not the signed file'));
    const updates = createUpdates('0.1.0', fake.updater, (t) => t, linuxCheck(PUBLIC));
    await updates.check();
    expect((await updates.install(async () => void fake.calls.push('shutdown'))).state).toBe('manual');
    const fixed = Buffer.concat([appImage, Buffer.from('0.2.1')]);
    fake.feed.info = { version: '0.2.1', files: [{ url: 'Oddsdesk-0.2.1.AppImage', ed25519Signature: signatureOf(fixed) }] };
    fake.feed.fileBytes = fixed;
    expect(await updates.check()).toMatchObject({ state: 'available', version: '0.2.1', message: null });
    expect(await updates.install(async () => void fake.calls.push('shutdown'))).toMatchObject({ state: 'ready', version: '0.2.1' });
    expect(fake.calls).toEqual(['check', 'download', 'check', 'download', 'shutdown', 'install']);
  });

  it("other platforms keep their own (OS code-signing) check: no signature asked for", async () => {
    expect(linuxSignatureCheck('win32', '/r', () => PUBLIC)).toBeNull();
    expect(linuxSignatureCheck('darwin', '/r', () => PUBLIC)).toBeNull();
    const fake = fakeUpdater(infoWith(), appImage);
    const updates = createUpdates('0.1.0', fake.updater, (t) => t, null);
    await updates.check();
    await updates.install(async () => void fake.calls.push('shutdown'));
    expect(fake.calls).toEqual(['check', 'download', 'shutdown', 'install']);
  });
});

describe('the release flow', () => {
  it('the packaged app reads the pinned key and the feed from its resources', async () => {
    const resources = path.join(dir, 'resources');
    mkdirSync(resources, { recursive: true });
    writeFileSync(path.join(resources, 'app-update.yml'), FEED);
    const none = linuxSignatureCheck('linux', resources);
    expect(none?.publicKey).toBeNull();
    writeFileSync(path.join(resources, UPDATE_KEY_FILE), PUBLIC);
    const check = linuxSignatureCheck('linux', resources)!;
    expect(check.publicKey).toBe(PUBLIC);
    expect(check.downloadPlace(infoWith())).toBe('https://updates.example/oddsdesk/Oddsdesk-0.2.0.AppImage');
    expect(Buffer.from(await check.readFile(path.join(resources, UPDATE_KEY_FILE))).toString()).toBe(PUBLIC);
  });

  it('scripts/sign-update.mjs signs the yml electron-builder wrote; the app parses it as electron-updater does and installs', async () => {
    const releaseDir = path.join(dir, 'release');
    mkdirSync(releaseDir, { recursive: true });
    writeFileSync(path.join(releaseDir, APPIMAGE), appImage);
    const { text, signed } = signUpdateInfo(latestLinuxYml(), releaseDir, pem(release.privateKey), PUBLIC);
    expect(signed).toEqual([APPIMAGE]);
    expect(text).not.toContain('PRIVATE');
    const info = yaml.load(text) as UpdateInfoLike;
    expect(info).toMatchObject({ version: '0.2.0', files: [{ url: APPIMAGE, sha512: 'c2hhNTEy', ed25519Signature: expect.any(String) }] });
    const { calls } = await checkAndInstall(info, appImage, PUBLIC);
    expect(calls).toEqual(['check', 'download', 'shutdown', 'install']);
  });

  it('the signing script refuses a private key that does not match the key pinned in the app', () => {
    const releaseDir = path.join(dir, 'release-mismatch');
    const read = () => appImage;
    expect(() => (untypedSign as (...a: unknown[]) => unknown)(latestLinuxYml(), releaseDir, pem(stranger.privateKey), PUBLIC, read)).toThrow(/does not verify against the key pinned in the app/);
  });

  it('a GitHub feed points the trader at its releases page; another provider at where they got Oddsdesk', () => {
    expect(downloadPlaceFrom('provider: github\nowner: oddsdesk\nrepo: desk\n')(infoWith())).toBe('https://github.com/oddsdesk/desk/releases/latest');
    expect(downloadPlaceFrom('provider: s3\nbucket: b\n')(infoWith())).toBeNull();
    expect(downloadPlaceFrom(FEED)({ version: '0.2.0', files: [{ url: 'http://elsewhere.example/x.AppImage' }] })).toBeNull();
  });
});
