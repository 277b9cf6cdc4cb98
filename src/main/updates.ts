// Receiving a fixed version: electron-updater against the feed electron-builder's `publish` config wrote into the
// package (resources/app-update.yml). No feed (the default build, a development run): updates are 'off' and nothing
// ever touches the network for them. With one, Settings checks and offers; nothing downloads or installs unasked.
// On Linux electron-updater checks a download only against a sha512 served by the same feed, so there an update is
// installed only when its Ed25519 signature (in the feed's latest-linux.yml, made with the release key) verifies
// against the public key pinned in the app. What is signed is the version together with the file (signedMessage), so
// an older signed build offered under a higher version is refused too. Without that key, or with a missing or bad
// signature, Settings only says a new version exists and where to get it: only ever on the release page's own origin
// (releasePage), never a link the feed chose elsewhere. macOS and Windows keep their own code-signing checks.
// Written against the slice of electron-updater's AppUpdater used here, so the state rules run without Electron.
import { createHash, createPublicKey, verify } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { UpdateView } from '../shared/ipc/contract';

/** The Linux release key's public half inside the packaged app's resources (electron-builder.yml, linux.extraResources). */
export const UPDATE_KEY_FILE = 'update-signing-key.pem';
/** The field of a file entry in latest-linux.yml that carries its signature (base64), written by scripts/sign-update.mjs. */
export const SIGNATURE_FIELD = 'ed25519Signature';

/** A file the feed offers, as electron-updater parsed it from latest-*.yml (fields it does not know are kept). */
export interface UpdateFileInfo {
  url: string;
  [SIGNATURE_FIELD]?: unknown;
}

/** What electron-updater tells about an update: the feed's yml; once downloaded, also the file it wrote. */
export interface UpdateInfoLike {
  version: string;
  files?: UpdateFileInfo[];
  downloadedFile?: string;
}

/** The part of electron-updater's AppUpdater used here. */
export interface UpdaterLike {
  autoDownload: boolean;
  autoInstallOnAppQuit: boolean;
  on(event: 'checking-for-update' | 'update-not-available', listener: () => void): unknown;
  on(event: 'update-available' | 'update-downloaded', listener: (info: UpdateInfoLike) => void): unknown;
  on(event: 'download-progress', listener: (p: { percent: number }) => void): unknown;
  on(event: 'error', listener: (e: Error) => void): unknown;
  checkForUpdates(): Promise<unknown>;
  downloadUpdate(): Promise<unknown>;
  quitAndInstall(): void;
}

/**
 * Why this app-update.yml's feed must not be used, or null when it may. Updates travel over the feed: one over plain
 * http would let anyone on the path serve a "new version", so a feed (`url`, or an S3-style `endpoint`) that is not
 * https is refused. Reads the flat `key: value` lines electron-builder writes; a generic feed without a url is refused.
 */
export function updateFeedProblem(appUpdateYml: string): string | null {
  const fields = feedFields(appUpdateYml);
  const provider = fields.get('provider');
  if (!provider) return 'the update feed names no provider';
  if (provider === 'generic' && !fields.get('url')) return 'the generic update feed has no url';
  for (const key of ['url', 'endpoint']) {
    const value = fields.get(key);
    if (value === undefined) continue;
    let protocol: string;
    try {
      protocol = new URL(value).protocol;
    } catch {
      return `the update feed's ${key} is not a URL`;
    }
    if (protocol !== 'https:') return `the update feed's ${key} is ${protocol.replace(/:$/, '')}, not https`;
  }
  return null;
}

/** The flat top-level `key: value` lines of the app-update.yml electron-builder writes, quotes removed. */
function feedFields(appUpdateYml: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const line of appUpdateYml.split(/\r?\n/)) {
    const m = /^([A-Za-z][\w-]*):\s*(.*?)\s*$/.exec(line);
    if (m) fields.set(m[1]!, m[2]!.replace(/^(['"])(.*)\1$/, '$2'));
  }
  return fields;
}

const readOrNull = (f: string): string | null => {
  try {
    return readFileSync(f, 'utf8');
  } catch {
    return null;
  }
};

/**
 * Is a usable update feed configured in this build? (electron-builder writes app-update.yml only when `publish` is
 * set.) A feed that is not https, or a file that cannot be read, leaves updates off, with one log line saying why.
 */
export function updateFeedConfigured(
  isPackaged: boolean,
  resourcesPath: string | undefined,
  exists: (f: string) => boolean = existsSync,
  read: (f: string) => string | null = readOrNull,
  log: (line: string) => void = (line) => console.warn(line),
): boolean {
  if (!isPackaged || !resourcesPath) return false;
  const file = path.join(resourcesPath, 'app-update.yml');
  if (!exists(file)) return false;
  const text = read(file);
  const problem = text === null ? 'app-update.yml cannot be read' : updateFeedProblem(text);
  if (problem) {
    log(`Updates off: ${problem}.`);
    return false;
  }
  return true;
}

/** The last path segment of a file URL (relative or absolute), decoded: the name electron-updater saves it under. */
function fileNameOf(url: string): string {
  const pathname = url.split(/[?#]/)[0] ?? '';
  let name = pathname.slice(pathname.lastIndexOf('/') + 1);
  try {
    name = decodeURIComponent(name);
  } catch {
    // kept as written
  }
  return name;
}

/** The signature the feed gives for the downloaded file (matched by file name), or undefined. */
export function signatureFor(info: Pick<UpdateInfoLike, 'files'> | null, downloadedFile: string): unknown {
  const name = path.basename(downloadedFile);
  return info?.files?.find((f) => typeof f.url === 'string' && fileNameOf(f.url) === name)?.[SIGNATURE_FIELD];
}

/**
 * What the release key signs for one Linux update (scripts/sign-update.mjs builds the same bytes): three lines, UTF-8,
 * no final line break, the sha512 in lowercase hex (what `sha512sum` prints):
 *   oddsdesk-update
 *   version <the version the feed offers it as>
 *   sha512 <sha512 of the file's bytes>
 * The version is part of it, so a signature made for 1.0.0 does not verify when the feed offers that file as 9.9.9.
 */
export function signedMessage(version: string, data: Uint8Array): Buffer {
  const sha512 = createHash('sha512').update(data).digest('hex');
  return Buffer.from(`oddsdesk-update\nversion ${version}\nsha512 ${sha512}`, 'utf8');
}

/**
 * Why `data` must not be installed as `version`, or null when `signature` (base64, as in latest-linux.yml) is a valid
 * Ed25519 signature by the key `publicKeyPem` of signedMessage(version, data): these bytes, offered as this version.
 * Each reason finishes "…, and <reason>" in Settings.
 */
export function signatureProblem(
  data: Uint8Array,
  version: string,
  signature: unknown,
  publicKeyPem: string | null,
): string | null {
  if (publicKeyPem === null) return 'this build has no release key to check it with';
  let key;
  try {
    key = createPublicKey(publicKeyPem);
  } catch {
    return "this build's release key cannot be read";
  }
  if (key.asymmetricKeyType !== 'ed25519') return "this build's release key is not an Ed25519 key";
  if (signature === undefined || signature === null || signature === '') return 'the update carries no signature';
  if (typeof signature !== 'string' || !/^[A-Za-z0-9+/]+={0,2}$/.test(signature.trim()))
    return 'its signature is not base64';
  const bytes = Buffer.from(signature.trim(), 'base64');
  if (bytes.length !== 64) return 'its signature is not an Ed25519 signature';
  return verify(null, signedMessage(version, data), key, bytes) ? null : 'its signature does not match the release key';
}

/**
 * Where a trader is sent to get a version by hand. `url` is always https and on the release page's origin: the file's
 * own address when the feed names it there, else the release page itself, with `offSite` saying the feed's link was
 * left out because it points elsewhere.
 */
export interface DownloadPlace {
  url: string;
  offSite: boolean;
}

/** Linux's extra check on a downloaded update; everything it needs is injectable, so it runs under plain Node. */
export interface LinuxSignatureCheck {
  /** The pinned release key (Ed25519, PEM), or null when this build has none: updates are then only announced. */
  publicKey: string | null;
  readFile(file: string): Promise<Uint8Array>;
  /** Where a trader can download the offered version by hand, or null when this build knows no release page. */
  downloadPlace(info: UpdateInfoLike): DownloadPlace | null;
}

/** `value` as an https URL without credentials, or null. */
function httpsUrl(value: string | undefined | null, base?: string): URL | null {
  if (!value) return null;
  try {
    const url = base === undefined ? new URL(value) : new URL(value, base);
    return url.protocol === 'https:' && url.username === '' && url.password === '' ? url : null;
  } catch {
    return null;
  }
}

/**
 * The release page this build names, from the app's own package.json (never from the feed's answer): its
 * `releasePage` field, set by the release owner (electron-builder: `-c.extraMetadata.releasePage=https://…`;
 * docs/releasing.md). Only an https URL counts; anything else is null, with one log line when something was set.
 */
export function releasePageSetting(
  packageJson: string | null,
  log: (line: string) => void = (line) => console.warn(line),
): string | null {
  if (packageJson === null) return null;
  let value: unknown;
  try {
    value = (JSON.parse(packageJson) as { releasePage?: unknown } | null)?.releasePage;
  } catch {
    return null;
  }
  if (value === undefined || value === null || value === '') return null;
  const url = typeof value === 'string' ? httpsUrl(value) : null;
  if (!url) log('Ignoring package.json releasePage: it is not an https URL.');
  return url?.href ?? null;
}

/**
 * The release page of this build: the `releasePage` setting when there is one; otherwise what its feed
 * (app-update.yml, written into the app at build time) implies: the releases page on GitHub, the feed's own address
 * on a generic feed; null for other providers.
 */
export function releasePageFrom(appUpdateYml: string | null, setting: string | null = null): string | null {
  const configured = httpsUrl(setting);
  if (configured) return configured.href;
  const fields = feedFields(appUpdateYml ?? '');
  const provider = fields.get('provider');
  if (provider === 'github' && fields.get('owner') && fields.get('repo')) {
    return (
      httpsUrl(
        `https://${fields.get('host') ?? 'github.com'}/${fields.get('owner')}/${fields.get('repo')}/releases/latest`,
      )?.href ?? null
    );
  }
  if (provider === 'generic') return httpsUrl(fields.get('url'))?.href ?? null;
  return null;
}

/**
 * Where a trader gets an offered version by hand, given this build's feed (app-update.yml) and release page setting.
 * Only the release page's own origin is ever named: on a generic feed the file's address (resolved against the feed
 * as electron-updater does) when it is https on that origin; otherwise the release page itself, saying the feed's
 * link was left out. Null when the build knows no release page ("where you got Oddsdesk").
 */
export function downloadPlaceFrom(
  appUpdateYml: string | null,
  releasePage: string | null = null,
): (info: UpdateInfoLike) => DownloadPlace | null {
  const fields = feedFields(appUpdateYml ?? '');
  const page = releasePageFrom(appUpdateYml, releasePage);
  const feedUrl = fields.get('provider') === 'generic' ? fields.get('url') : undefined;
  return (info) => {
    if (page === null) return null;
    const file = info.files?.[0]?.url;
    if (!feedUrl || typeof file !== 'string' || file === '') return { url: page, offSite: false };
    const url = httpsUrl(file, feedUrl.endsWith('/') ? feedUrl : `${feedUrl}/`);
    return url !== null && url.origin === new URL(page).origin
      ? { url: url.href, offSite: false }
      : { url: page, offSite: true };
  };
}

/**
 * The signature check for this platform: Linux only (macOS and Windows check the OS code signature themselves).
 * `appPath` is where the app's package.json is (Electron: app.getAppPath()), for its releasePage setting.
 */
export function linuxSignatureCheck(
  platform: NodeJS.Platform,
  resourcesPath: string | undefined,
  read: (f: string) => string | null = readOrNull,
  appPath?: string,
): LinuxSignatureCheck | null {
  if (platform !== 'linux') return null;
  return {
    publicKey: resourcesPath ? read(path.join(resourcesPath, UPDATE_KEY_FILE)) : null,
    readFile: (f) => readFile(f),
    downloadPlace: downloadPlaceFrom(
      resourcesPath ? read(path.join(resourcesPath, 'app-update.yml')) : null,
      appPath ? releasePageSetting(read(path.join(appPath, 'package.json'))) : null,
    ),
  };
}

export interface Updates {
  view(): UpdateView;
  check(): Promise<UpdateView>;
  /**
   * Downloads if needed, checks the download where the platform asks for it (Linux: the signature), then
   * `beforeInstall` (close the app cleanly), then installs and restarts. Refuses an update to be installed by hand.
   */
  install(beforeInstall: () => Promise<void>): Promise<UpdateView>;
}

export function createUpdates(
  currentVersion: string,
  updater: UpdaterLike | null,
  clean: (text: string) => string = (t) => t,
  signatureCheck: LinuxSignatureCheck | null = null,
): Updates {
  let view: UpdateView = {
    state: updater ? 'idle' : 'off',
    currentVersion,
    version: null,
    percent: null,
    message: updater ? null : 'No update feed is configured in this build.',
  };
  const set = (patch: Partial<UpdateView>) => (view = { ...view, ...patch });
  const failed = (e: unknown) =>
    set({ state: 'error', message: clean(String(e instanceof Error ? e.message : e).split('\n')[0]!) });
  /** What the feed offers, and what electron-updater said when it had downloaded it. */
  let offered: UpdateInfoLike | null = null;
  let downloadedInfo: UpdateInfoLike | null = null;
  /** One download-and-check per offer: true when the download may be installed. */
  let readying: Promise<boolean> | null = null;
  let installing = false;

  /** Only by hand from here: says where to get the version, and why this build will not install it itself. */
  const manual = (info: UpdateInfoLike, reason: string) => {
    const place = signatureCheck?.downloadPlace(info) ?? null;
    const where =
      place === null
        ? 'where you got Oddsdesk and install it yourself'
        : place.offSite
          ? `the release page, ${place.url}, and install it yourself (the feed's own download link is on another site, so it is not shown)`
          : `${place.url} and install it yourself`;
    set({
      state: 'manual',
      version: info.version,
      percent: null,
      message: clean(
        `Download it from ${where}: this build installs an update only when its signature checks against the release key, and ${reason}.`,
      ),
    });
  };

  if (updater) {
    // Asked, never automatic: a trader's desk does not restart itself mid-session.
    updater.autoDownload = false;
    updater.autoInstallOnAppQuit = false;
    updater.on('checking-for-update', () => set({ state: 'checking', message: null }));
    updater.on('update-not-available', () => set({ state: 'latest', message: null }));
    updater.on('update-available', (info) => {
      offered = info;
      downloadedInfo = null;
      readying = null;
      // Without a pinned key nothing downloaded could ever be installed: say so now rather than after a download.
      if (signatureCheck && signatureCheck.publicKey === null)
        manual(info, 'this build has no release key to check it with');
      else set({ state: 'available', version: info.version, percent: null, message: null });
    });
    updater.on('download-progress', (p) => set({ state: 'downloading', percent: Math.round(p.percent) }));
    updater.on('update-downloaded', (info) => {
      downloadedInfo = info;
      // Where the signature must be checked, the download is not 'ready' until it has been.
      set(
        signatureCheck
          ? { state: 'downloading', version: info.version, percent: 100 }
          : { state: 'ready', version: info.version, percent: 100 },
      );
    });
    // The feed's errors can carry URLs with tokens: scrubbed, one line.
    updater.on('error', (e) => set({ state: 'error', message: clean(e.message.split('\n')[0] ?? 'update failed') }));
  }

  /** The file electron-updater downloaded, checked where the platform asks for it; false leaves the reason in view. */
  async function downloadAndCheck(u: UpdaterLike): Promise<boolean> {
    let files: unknown;
    try {
      files = await u.downloadUpdate();
    } catch (e) {
      readying = null;
      failed(e);
      return false;
    }
    if (signatureCheck) {
      const info = downloadedInfo ?? offered ?? { version: view.version ?? '?' };
      const file = info.downloadedFile ?? (Array.isArray(files) && typeof files[0] === 'string' ? files[0] : null);
      let problem: string | null;
      if (file === null) problem = 'the downloaded file cannot be found';
      else {
        const data = await signatureCheck.readFile(file).catch(() => null);
        // Checked as the version the feed offers: a build signed for an older version does not pass as this one.
        problem =
          data === null
            ? 'the downloaded file cannot be read'
            : signatureProblem(data, String(info.version), signatureFor(info, file), signatureCheck.publicKey);
      }
      if (problem) {
        manual(info, problem);
        return false;
      }
    }
    set({ state: 'ready', percent: 100, message: null });
    return true;
  }

  return {
    view: () => view,
    async check() {
      if (!updater) return view;
      await updater.checkForUpdates().catch(failed);
      return view;
    },
    async install(beforeInstall) {
      if (!updater || (view.state !== 'available' && view.state !== 'ready' && view.state !== 'downloading'))
        return view;
      readying ??= downloadAndCheck(updater);
      if (!(await readying) || installing) return view;
      installing = true;
      await beforeInstall();
      updater.quitAndInstall();
      return view;
    },
  };
}
