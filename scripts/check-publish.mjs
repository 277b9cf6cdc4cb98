// The update feed an installer is built with must be https: electron-updater downloads and installs whatever that
// feed offers, so a plain-http feed would let anyone on the network path ship the trader a "new version". Runs as
// electron-builder's beforePack hook (electron-builder.yml), so `npm run dist -- -c.publish.url=http://…` fails
// before anything is packed; the packaged app refuses such a feed again at runtime (src/main/updates.ts).
// With a feed, a Windows build must also name the code-signing certificate's publisher (electron-updater then installs
// only an update signed by it), and a Linux release key, when one is added, must be an Ed25519 public key (never the
// private half). A release page (package.json's releasePage, where a refused update sends the trader) must be https.
// The release owner's steps: docs/releasing.md.
import { createPublicKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** The placeholder electron-builder.yml ships as win.signtoolOptions.publisherName; the release owner replaces it. */
export const PUBLISHER_PLACEHOLDER = 'REPLACE-WITH-CERTIFICATE-SUBJECT-CN';
/** Where the Linux release key's public half lives in the checkout (electron-builder.yml's linux.extraResources). */
export const UPDATE_KEY_SOURCE = 'resources/update-signing-key.pem';

const asList = (v) => (v == null ? [] : Array.isArray(v) ? v : [v]);

/**
 * What is wrong with a `publish` configuration (electron-builder's: null, a provider name, an object or a list of
 * them), as a list of sentences; empty when it may be built. A generic provider needs an https `url`; any `url` or
 * `endpoint` given (S3-compatible stores) must be https too.
 * @param {unknown} publish
 * @returns {string[]}
 */
export function publishProblems(publish) {
  const problems = [];
  for (const entry of asList(publish)) {
    if (typeof entry === 'string') {
      if (entry === 'generic') problems.push('publish provider generic needs a url (https)');
      continue;
    }
    if (typeof entry !== 'object' || entry === null) {
      problems.push(`publish entry ${JSON.stringify(entry)} is not a provider`);
      continue;
    }
    const provider = entry.provider;
    if (provider === 'generic' && (typeof entry.url !== 'string' || entry.url === ''))
      problems.push('publish provider generic needs a url (https)');
    for (const key of ['url', 'endpoint']) {
      const value = entry[key];
      if (value == null) continue;
      let protocol;
      try {
        protocol = new URL(String(value)).protocol;
      } catch {
        problems.push(`publish ${key} ${JSON.stringify(String(value))} is not a URL`);
        continue;
      }
      if (protocol !== 'https:')
        problems.push(`publish ${key} ${JSON.stringify(String(value))} is not https (provider ${provider ?? '?'})`);
    }
  }
  return problems;
}

/** Whether a `publish` configuration names any feed (electron-builder then writes app-update.yml into the app). */
export function hasFeed(publish) {
  return asList(publish).some((entry) => entry != null && entry !== false && entry !== '');
}

/**
 * What is wrong with a Windows build's signing fields when it has an update feed, as sentences; empty when it may be
 * built. electron-updater installs a downloaded update only if its Authenticode signature carries one of the names in
 * app-update.yml's publisherName, taken from win.signtoolOptions.publisherName (or azureSignOptions.publisherName).
 * @param {any} win electron-builder's `win` options
 * @param {boolean} feed
 * @returns {string[]}
 */
export function windowsSigningProblems(win, feed) {
  if (!feed) return [];
  const problems = [];
  const names = [
    ...asList(win?.signtoolOptions?.publisherName),
    ...asList(win?.azureSignOptions?.publisherName),
  ].filter((n) => typeof n === 'string' && n.trim() !== '');
  if (names.length === 0)
    problems.push(
      "win.signtoolOptions.publisherName is not set: set it to the code-signing certificate's subject CN (docs/releasing.md)",
    );
  else if (names.some((n) => n.includes(PUBLISHER_PLACEHOLDER)))
    problems.push(
      `win.signtoolOptions.publisherName is still the placeholder ${PUBLISHER_PLACEHOLDER}: set it to the code-signing certificate's subject CN (docs/releasing.md)`,
    );
  if (win?.verifyUpdateCodeSignature === false)
    problems.push('win.verifyUpdateCodeSignature is false: the app would install an update whoever signed it');
  return problems;
}

/**
 * What is wrong with the Linux release key file's text (null: no file, which is allowed: updates are then only
 * announced). It must be an Ed25519 public key in PEM; a private key is refused, since the file ships in the app.
 * @param {string | null} pem
 * @returns {string[]}
 */
export function updateKeyProblems(pem) {
  if (pem === null) return [];
  if (/PRIVATE KEY/.test(pem))
    return [`${UPDATE_KEY_SOURCE} holds a PRIVATE key: it would ship in the app; put only the public half there`];
  let type;
  try {
    type = createPublicKey(pem).asymmetricKeyType;
  } catch {
    return [`${UPDATE_KEY_SOURCE} is not a public key in PEM form`];
  }
  return type === 'ed25519' ? [] : [`${UPDATE_KEY_SOURCE} is a ${type} key, not Ed25519`];
}

/**
 * What is wrong with the release page setting (package.json's `releasePage`, or electron-builder's
 * extraMetadata.releasePage), as sentences; empty when it is unset or an https URL without credentials. The app
 * ignores any other value (src/main/updates.ts), so a build with one is refused rather than shipped without its page.
 * @param {unknown} value
 * @returns {string[]}
 */
export function releasePageProblems(value) {
  if (value === undefined || value === null || value === '') return [];
  let url = null;
  try {
    url = typeof value === 'string' ? new URL(value) : null;
  } catch {
    url = null;
  }
  if (url === null) return [`releasePage ${JSON.stringify(value)} is not a URL`];
  if (url.protocol !== 'https:') return [`releasePage ${JSON.stringify(value)} is not https`];
  if (url.username !== '' || url.password !== '') return [`releasePage ${JSON.stringify(value)} carries credentials`];
  return [];
}

const readOrNull = (file) => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
};

/**
 * electron-builder's beforePack hook: the shared publish config and this platform's own are both checked; a Windows
 * build with a feed needs its publisher name; a release key, if present, must be an Ed25519 public key.
 */
export default async function beforePack(context, read = readOrNull, warn = (line) => console.warn(line)) {
  const packager = context.packager;
  const own = packager.platformSpecificBuildOptions;
  const problems = [...publishProblems(packager.config?.publish), ...publishProblems(own?.publish)];
  if (problems.length > 0) throw new Error(`Refusing to build with an insecure update feed: ${problems.join('; ')}`);
  // The app's package.json as packed (extraMetadata merged in).
  const pageProblems = releasePageProblems(
    packager.info?.metadata?.releasePage ?? packager.config?.extraMetadata?.releasePage,
  );
  if (pageProblems.length > 0)
    throw new Error(`Refusing to build: ${pageProblems.join('; ')} (docs/releasing.md, "The release page")`);
  const feed = hasFeed(packager.config?.publish) || hasFeed(own?.publish);
  const platform = context.electronPlatformName;
  if (platform === 'win32') {
    const signing = windowsSigningProblems(own ?? packager.config?.win, feed);
    if (signing.length > 0)
      throw new Error(`Refusing to build a Windows installer with an update feed: ${signing.join('; ')}`);
  }
  const key = read(path.resolve(packager.projectDir ?? process.cwd(), UPDATE_KEY_SOURCE));
  const keyProblems = updateKeyProblems(key);
  if (keyProblems.length > 0) throw new Error(`Refusing to build: ${keyProblems.join('; ')}`);
  if (platform === 'linux' && feed && key === null) {
    warn(
      `Note: no ${UPDATE_KEY_SOURCE}: this Linux build will tell traders a new version exists but never install one itself (docs/releasing.md).`,
    );
  }
}
