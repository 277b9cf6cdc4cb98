// On Linux an update is installed only when its Ed25519 signature (in the feed's latest-linux.yml) of the version and
// the file verifies against the release key pinned in the app; otherwise Settings says a new version exists and where
// to get it (only ever on the release page's origin), and install refuses. The key pair is made here, per run: no key
// of any real release is involved.
import { createHash, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
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
  releasePageSetting,
  SIGNATURE_FIELD,
  signatureProblem,
  UPDATE_KEY_FILE,
  type LinuxSignatureCheck,
  type UpdateInfoLike,
  type UpdaterLike,
} from '../../src/main/updates';
// @ts-expect-error: a plain .mjs script without types
import { signUpdateInfo as untypedSign } from '../../scripts/sign-update.mjs';

const signUpdateInfo = untypedSign as (
  yml: string,
  dir: string,
  privatePem: string,
  pinned?: string | null,
) => { text: string; signed: string[] };
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
const latestLinuxYml = (file = APPIMAGE, version = '0.2.0') =>
  `version: ${version}\nfiles:\n  - url: ${file}\n    sha512: c2hhNTEy\n    size: ${appImage.length}\n    blockMapSize: 100\npath: ${file}\nsha512: c2hhNTEy\nreleaseDate: '2025-01-02T03:04:05.000Z'\n`;
/** What the release key signs, as docs/releasing.md spells it out (written here again, not imported, to pin it). */
const signedText = (version: string, data: Buffer) =>
  `oddsdesk-update\nversion ${version}\nsha512 ${createHash('sha512').update(data).digest('hex')}`;
const signatureOf = (data: Buffer, key = release.privateKey, version = '0.2.0') =>
  sign(null, Buffer.from(signedText(version, data)), key).toString('base64');
const infoWith = (signature?: string): UpdateInfoLike => ({
  version: '0.2.0',
  files: [{ url: APPIMAGE, ...(signature === undefined ? {} : { ed25519Signature: signature }) }],
});

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
      const downloaded = path.join(
        dir,
        `pending-${Math.random().toString(36).slice(2)}`,
        path.basename(feed.info.files![0]!.url),
      );
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
    expect(signatureProblem(appImage, '0.2.0', signatureOf(appImage), PUBLIC)).toBeNull();
    expect(signatureProblem(appImage, '0.2.0', ` ${signatureOf(appImage)}\n`, PUBLIC)).toBeNull();
  });

  it('refuses a tampered file, another key, a missing or malformed signature, and no pinned key', () => {
    const tampered = Buffer.from(appImage);
    tampered[100] = tampered[100]! ^ 1;
    expect(signatureProblem(tampered, '0.2.0', signatureOf(appImage), PUBLIC)).toBe(
      'its signature does not match the release key',
    );
    expect(signatureProblem(appImage, '0.2.0', signatureOf(appImage, stranger.privateKey), PUBLIC)).toBe(
      'its signature does not match the release key',
    );
    expect(signatureProblem(appImage, '0.2.0', undefined, PUBLIC)).toBe('the update carries no signature');
    expect(signatureProblem(appImage, '0.2.0', 'not base64!', PUBLIC)).toBe('its signature is not base64');
    expect(signatureProblem(appImage, '0.2.0', Buffer.alloc(32).toString('base64'), PUBLIC)).toBe(
      'its signature is not an Ed25519 signature',
    );
    expect(signatureProblem(appImage, '0.2.0', signatureOf(appImage), null)).toBe(
      'this build has no release key to check it with',
    );
    const rsa = pem(generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey);
    expect(signatureProblem(appImage, '0.2.0', signatureOf(appImage), rsa)).toBe(
      "this build's release key is not an Ed25519 key",
    );
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
    expect(other.view).toMatchObject({
      state: 'manual',
      message: expect.stringMatching(/does not match the release key\.$/),
    });
    const unsigned = await checkAndInstall(infoWith(), appImage, PUBLIC);
    expect(unsigned.calls).not.toContain('install');
    expect(unsigned.view).toMatchObject({ state: 'manual', message: expect.stringMatching(/carries no signature\.$/) });
  });

  it('without a pinned key: "available, install it by hand" at once, nothing downloaded, install refused', async () => {
    const { calls, offered, view } = await checkAndInstall(infoWith(signatureOf(appImage)), appImage, null);
    expect(offered).toMatchObject({ state: 'manual', version: '0.2.0' });
    expect(offered.message).toMatch(
      /^Download it from https:\/\/updates\.example\/oddsdesk\/Oddsdesk-0\.2\.0\.AppImage and install it yourself: .*no release key/,
    );
    expect(view.state).toBe('manual');
    expect(calls).toEqual(['check']);
  });

  it('an app pinned to another key installs nothing, even a download the release key signed', async () => {
    const { calls, view } = await checkAndInstall(infoWith(signatureOf(appImage)), appImage, pem(stranger.publicKey));
    expect(calls).toEqual(['check', 'download']);
    expect(view).toMatchObject({
      state: 'manual',
      message: expect.stringMatching(/does not match the release key\.$/),
    });
  });

  it('after a refused download, the next version the feed offers is downloaded and checked afresh', async () => {
    const fake = fakeUpdater(infoWith(signatureOf(appImage)), Buffer.from('not the signed file'));
    const updates = createUpdates('0.1.0', fake.updater, (t) => t, linuxCheck(PUBLIC));
    await updates.check();
    expect((await updates.install(async () => void fake.calls.push('shutdown'))).state).toBe('manual');
    const fixed = Buffer.concat([appImage, Buffer.from('0.2.1')]);
    fake.feed.info = {
      version: '0.2.1',
      files: [{ url: 'Oddsdesk-0.2.1.AppImage', ed25519Signature: signatureOf(fixed, release.privateKey, '0.2.1') }],
    };
    fake.feed.fileBytes = fixed;
    expect(await updates.check()).toMatchObject({ state: 'available', version: '0.2.1', message: null });
    expect(await updates.install(async () => void fake.calls.push('shutdown'))).toMatchObject({
      state: 'ready',
      version: '0.2.1',
    });
    expect(fake.calls).toEqual(['check', 'download', 'check', 'download', 'shutdown', 'install']);
  });

  it('other platforms keep their own (OS code-signing) check: no signature asked for', async () => {
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
    expect(check.downloadPlace(infoWith())).toEqual({
      url: 'https://updates.example/oddsdesk/Oddsdesk-0.2.0.AppImage',
      offSite: false,
    });
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
    expect(info).toMatchObject({
      version: '0.2.0',
      files: [{ url: APPIMAGE, sha512: 'c2hhNTEy', ed25519Signature: expect.any(String) }],
    });
    const { calls } = await checkAndInstall(info, appImage, PUBLIC);
    expect(calls).toEqual(['check', 'download', 'shutdown', 'install']);
  });

  it('the signing script refuses a private key that does not match the key pinned in the app', () => {
    const releaseDir = path.join(dir, 'release-mismatch');
    const read = () => appImage;
    expect(() =>
      (untypedSign as (...a: unknown[]) => unknown)(
        latestLinuxYml(),
        releaseDir,
        pem(stranger.privateKey),
        PUBLIC,
        read,
      ),
    ).toThrow(/does not verify against the key pinned in the app/);
  });

  it('a GitHub feed points the trader at its releases page; another provider at where they got Oddsdesk', () => {
    expect(downloadPlaceFrom('provider: github\nowner: oddsdesk\nrepo: desk\n')(infoWith())).toEqual({
      url: 'https://github.com/oddsdesk/desk/releases/latest',
      offSite: false,
    });
    expect(downloadPlaceFrom('provider: s3\nbucket: b\n')(infoWith())).toBeNull();
    expect(downloadPlaceFrom('provider: s3\nbucket: b\n', 'https://oddsdesk.example/download')(infoWith())).toEqual({
      url: 'https://oddsdesk.example/download',
      offSite: false,
    });
    expect(
      downloadPlaceFrom(FEED)({ version: '0.2.0', files: [{ url: 'http://elsewhere.example/x.AppImage' }] }),
    ).toEqual({ url: 'https://updates.example/oddsdesk', offSite: true });
  });
});

describe("issue 36: a refused update names only the release page's origin", () => {
  /** A packaged app's resources (feed, optionally the pinned key) and its package.json (optionally a releasePage). */
  function packagedApp(
    name: string,
    feed: string,
    publicKey: string | null,
    packageJson: object = { name: 'oddsdesk', version: '0.1.0' },
  ) {
    const resources = path.join(dir, name, 'resources');
    const app = path.join(dir, name, 'app');
    mkdirSync(resources, { recursive: true });
    mkdirSync(app, { recursive: true });
    writeFileSync(path.join(resources, 'app-update.yml'), feed);
    if (publicKey !== null) writeFileSync(path.join(resources, UPDATE_KEY_FILE), publicKey);
    writeFileSync(path.join(app, 'package.json'), JSON.stringify(packageJson));
    return linuxSignatureCheck('linux', resources, undefined, app)!;
  }

  /** What Settings shows after check and install, with the feed naming its file at `fileUrl`. */
  async function refusal(check: LinuxSignatureCheck, fileUrl: string, signature?: string) {
    const fake = fakeUpdater(
      {
        version: '0.2.0',
        files: [{ url: fileUrl, ...(signature === undefined ? {} : { ed25519Signature: signature }) }],
      },
      appImage,
    );
    const updates = createUpdates('0.1.0', fake.updater, (t) => t, check);
    const offered = await updates.check();
    const view = await updates.install(async () => void fake.calls.push('shutdown'));
    return { offered, view, calls: fake.calls };
  }

  // Other origins the feed might name for its file: another host, a look-alike host, another port, another scheme,
  // a protocol-relative link, credentials in front of another host.
  const elsewhere = [
    'https://evil.example/Oddsdesk-0.2.0.AppImage',
    'https://updates.example.evil.example/oddsdesk/Oddsdesk-0.2.0.AppImage',
    'https://updates.example:8443/oddsdesk/Oddsdesk-0.2.0.AppImage',
    'http://updates.example/oddsdesk/Oddsdesk-0.2.0.AppImage',
    '//evil.example/Oddsdesk-0.2.0.AppImage',
    'https://updates.example@evil.example/Oddsdesk-0.2.0.AppImage',
  ];
  const releasePageInstead = (page: string) =>
    `Download it from the release page, ${page}, and install it yourself (the feed's own download link is on another site, so it is not shown): this build installs an update only when its signature checks against the release key, and `;

  it('a build without a release key: a file on another origin is never shown; the release page is, saying why', async () => {
    const check = packagedApp('no-key', FEED, null);
    for (const url of elsewhere) {
      const { offered, calls } = await refusal(check, url);
      expect(offered.state).toBe('manual');
      expect(calls).toEqual(['check']);
      expect(offered.message).not.toContain('evil.example');
      expect(offered.message).not.toContain(':8443');
      expect(offered.message).not.toContain('http://');
      expect(offered.message).toBe(
        `${releasePageInstead('https://updates.example/oddsdesk')}this build has no release key to check it with.`,
      );
    }
    // A file the feed names on its own origin is still given by its address.
    expect((await refusal(check, 'Oddsdesk-0.2.0.AppImage')).offered.message).toMatch(
      /^Download it from https:\/\/updates\.example\/oddsdesk\/Oddsdesk-0\.2\.0\.AppImage and install it yourself: /,
    );
  });

  it("a refused signature: the download link is on the release page's origin only", async () => {
    const check = packagedApp('with-key', FEED, PUBLIC);
    for (const url of elsewhere) {
      const { view, calls } = await refusal(check, url, signatureOf(appImage, stranger.privateKey));
      expect(calls).not.toContain('install');
      expect(view.state).toBe('manual');
      expect(view.message).not.toContain('evil.example');
      expect(view.message).toBe(
        `${releasePageInstead('https://updates.example/oddsdesk')}its signature does not match the release key.`,
      );
    }
  });

  it("with a release page configured (package.json's releasePage), only its origin is named, even the feed's own", async () => {
    const page = 'https://oddsdesk.example/download';
    const check = packagedApp('release-page', FEED, null, { name: 'oddsdesk', version: '0.1.0', releasePage: page });
    // The feed's file is on the feed's origin, which is not the release page's: the release page is named instead.
    expect((await refusal(check, 'Oddsdesk-0.2.0.AppImage')).offered.message).toBe(
      `${releasePageInstead(page)}this build has no release key to check it with.`,
    );
    expect((await refusal(check, 'https://evil.example/Oddsdesk-0.2.0.AppImage')).offered.message).toBe(
      `${releasePageInstead(page)}this build has no release key to check it with.`,
    );
    // A feed that serves its files from the release page's origin: the file's address.
    const sameSite = packagedApp('same-site', 'provider: generic\nurl: https://oddsdesk.example/updates\n', null, {
      releasePage: page,
    });
    expect((await refusal(sameSite, 'Oddsdesk-0.2.0.AppImage')).offered.message).toMatch(
      /^Download it from https:\/\/oddsdesk\.example\/updates\/Oddsdesk-0\.2\.0\.AppImage and install it yourself: /,
    );
    expect((await refusal(sameSite, 'https://evil.example/x.AppImage')).offered.message).toBe(
      `${releasePageInstead(page)}this build has no release key to check it with.`,
    );
  });

  it('the release page setting is https only, and never comes from the feed', () => {
    const logged: string[] = [];
    const log = (line: string) => logged.push(line);
    expect(releasePageSetting(JSON.stringify({ releasePage: 'https://oddsdesk.example/download' }), log)).toBe(
      'https://oddsdesk.example/download',
    );
    expect(releasePageSetting(JSON.stringify({ name: 'oddsdesk' }), log)).toBeNull();
    expect(releasePageSetting(null, log)).toBeNull();
    expect(logged).toEqual([]);
    expect(releasePageSetting(JSON.stringify({ releasePage: 'http://oddsdesk.example/download' }), log)).toBeNull();
    expect(releasePageSetting(JSON.stringify({ releasePage: 'https://u:p@oddsdesk.example/' }), log)).toBeNull();
    expect(releasePageSetting(JSON.stringify({ releasePage: 42 }), log)).toBeNull();
    expect(logged).toHaveLength(3);
    // An http setting falls back to the feed's own origin, not to the setting.
    const check = packagedApp('http-page', FEED, null, { releasePage: 'http://oddsdesk.example/download' });
    expect(check.downloadPlace({ version: '0.2.0', files: [{ url: 'https://evil.example/x' }] })).toEqual({
      url: 'https://updates.example/oddsdesk',
      offSite: true,
    });
  });
});

describe('issue 36: the version is part of what is signed', () => {
  /** The release owner's flow for one version: latest-linux.yml signed by scripts/sign-update.mjs, as the app parses it. */
  function signedFeed(version: string, bytes: Buffer): UpdateInfoLike {
    const releaseDir = path.join(dir, `release-${version}`);
    mkdirSync(releaseDir, { recursive: true });
    const name = `Oddsdesk-${version}.AppImage`;
    writeFileSync(path.join(releaseDir, name), bytes);
    return yaml.load(
      signUpdateInfo(latestLinuxYml(name, version), releaseDir, pem(release.privateKey), PUBLIC).text,
    ) as UpdateInfoLike;
  }
  const oldBuild = Buffer.from(`#!/bin/sh\n# Oddsdesk 1.0.0 ${'o'.repeat(4096)}\n`);

  it('a build signed for 1.0.0, offered in the feed as 9.9.9, does not verify and is not installed', async () => {
    const genuine = signedFeed('1.0.0', oldBuild);
    const replayed: UpdateInfoLike = { ...genuine, version: '9.9.9' };
    const { calls, view } = await checkAndInstall(replayed, oldBuild, PUBLIC);
    expect(calls).not.toContain('install');
    expect(calls).toEqual(['check', 'download']);
    expect(view).toMatchObject({
      state: 'manual',
      version: '9.9.9',
      message: expect.stringMatching(/its signature does not match the release key\.$/),
    });
    // The same file and signature, at the rule's level.
    const signature = genuine.files![0]![SIGNATURE_FIELD];
    expect(signatureProblem(oldBuild, '9.9.9', signature, PUBLIC)).toBe('its signature does not match the release key');
    expect(signatureProblem(oldBuild, '1.0.0', signature, PUBLIC)).toBeNull();
  });

  it('the same signed feed, offered as the version it was signed for, installs', async () => {
    const { calls, view } = await checkAndInstall(signedFeed('1.0.0', oldBuild), oldBuild, PUBLIC);
    expect(calls).toEqual(['check', 'download', 'shutdown', 'install']);
    expect(view).toMatchObject({ state: 'ready', version: '1.0.0' });
  });

  it('the signed message is the documented text: version, then the sha512 of the file in hex', () => {
    const info = signedFeed('1.0.0', oldBuild);
    const signature = Buffer.from(String(info.files![0]![SIGNATURE_FIELD]), 'base64');
    const text = `oddsdesk-update\nversion 1.0.0\nsha512 ${createHash('sha512').update(oldBuild).digest('hex')}`;
    expect(verify(null, Buffer.from(text), release.publicKey, signature)).toBe(true);
    expect(verify(null, oldBuild, release.publicKey, signature)).toBe(false);
  });

  it('the signing script refuses a yml without a usable version', () => {
    const read = () => appImage;
    const signYml = untypedSign as (...a: unknown[]) => unknown;
    expect(() =>
      signYml(latestLinuxYml().replace('version: 0.2.0\n', ''), dir, pem(release.privateKey), PUBLIC, read),
    ).toThrow(/is not a version/);
    expect(() =>
      signYml(latestLinuxYml(APPIMAGE, '"1.0.0\\nsha512 x"'), dir, pem(release.privateKey), PUBLIC, read),
    ).toThrow(/is not a version/);
  });
});
