// Signs a Linux release for in-app updates: for every file latest-linux.yml lists (the AppImage; a deb if listed),
// an Ed25519 signature of the release's version together with the file's sha512 (signedMessage below), made with the
// release key's private half, goes into that file's entry as `ed25519Signature` (base64). The app installs a
// downloaded update only if that signature verifies against the public half pinned in it, for the version the feed
// offers it as (resources/update-signing-key.pem; src/main/updates.ts): an older build offered under a higher
// version is refused. Run on the release machine after
// `npm run dist`, before uploading (docs/releasing.md):
//   node scripts/sign-update.mjs --key /secure/oddsdesk-release.pem release/latest-linux.yml
// The private key never enters the repository or the app; the yml is rewritten in place.
import { createHash, createPrivateKey, createPublicKey, sign, verify } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isEntryScript } from './electron-native.mjs';

const require = createRequire(import.meta.url);
// electron-updater's own YAML library (a dependency of it): the app reads the yml back with the same parser.
const yaml = require('js-yaml');

export const SIGNATURE_FIELD = 'ed25519Signature';
const PINNED_KEY = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'resources', 'update-signing-key.pem');

/**
 * What is signed for one file (the same bytes as signedMessage in src/main/updates.ts): three lines, UTF-8, no final
 * line break, the sha512 in lowercase hex as `sha512sum` prints it:
 *   oddsdesk-update
 *   version <version>
 *   sha512 <sha512 of the file's bytes>
 * @param {string} version
 * @param {Uint8Array} data
 * @returns {Buffer}
 */
export function signedMessage(version, data) {
  const sha512 = createHash('sha512').update(data).digest('hex');
  return Buffer.from(`oddsdesk-update\nversion ${version}\nsha512 ${sha512}`, 'utf8');
}

/** The file name a feed entry's url points at, decoded (what electron-builder wrote next to the yml). */
function fileNameOf(url) {
  const pathname = String(url).split(/[?#]/)[0] ?? '';
  return decodeURIComponent(pathname.slice(pathname.lastIndexOf('/') + 1));
}

/**
 * The text of `ymlText` with every listed file signed for the yml's `version`. Files are read from `dir`. When `pinnedPublicPem` is given,
 * each signature is checked against it, so a private key that does not match the key in the app is caught here.
 * @param {string} ymlText
 * @param {string} dir
 * @param {string} privatePem
 * @param {string | null} pinnedPublicPem
 * @param {(file: string) => Buffer} read
 * @returns {{ text: string, signed: string[] }}
 */
export function signUpdateInfo(ymlText, dir, privatePem, pinnedPublicPem = null, read = (f) => readFileSync(f)) {
  const privateKey = createPrivateKey(privatePem);
  if (privateKey.asymmetricKeyType !== 'ed25519')
    throw new Error(`the release key is a ${privateKey.asymmetricKeyType} key, not Ed25519`);
  const check = pinnedPublicPem === null ? createPublicKey(privateKey) : createPublicKey(pinnedPublicPem);
  const info = yaml.load(ymlText);
  const files = Array.isArray(info?.files) ? info.files : [];
  if (files.length === 0) throw new Error('the yml lists no files to sign');
  // As electron-builder writes it (e.g. 0.2.0): the app checks the signature against the version the feed offers.
  const version = typeof info.version === 'string' ? info.version : '';
  if (!/^[0-9A-Za-z][0-9A-Za-z.+-]*$/.test(version))
    throw new Error(`the yml's version ${JSON.stringify(info.version ?? null)} is not a version`);
  const signed = [];
  for (const entry of files) {
    const name = fileNameOf(entry.url);
    const message = signedMessage(version, read(path.join(dir, name)));
    const signature = sign(null, message, privateKey);
    if (!verify(null, message, check, signature)) {
      throw new Error(
        `the signature of ${name} does not verify against ${pinnedPublicPem === null ? 'its own key' : 'the key pinned in the app (resources/update-signing-key.pem)'}: wrong private key?`,
      );
    }
    entry[SIGNATURE_FIELD] = signature.toString('base64');
    signed.push(name);
  }
  return { text: yaml.dump(info, { lineWidth: -1 }), signed };
}

function main(argv) {
  const at = argv.indexOf('--key');
  const keyFile = at >= 0 ? argv[at + 1] : undefined;
  const yml = argv.filter((a, i) => a !== '--key' && i !== at + 1)[0];
  if (!keyFile || !yml) {
    console.error('usage: node scripts/sign-update.mjs --key <release-private-key.pem> <release/latest-linux.yml>');
    return 2;
  }
  let pinned = null;
  try {
    pinned = readFileSync(PINNED_KEY, 'utf8');
  } catch {
    console.warn(
      `Note: no ${path.relative(process.cwd(), PINNED_KEY)}: the signatures are checked only against the private key's own public half.`,
    );
  }
  const { text, signed } = signUpdateInfo(
    readFileSync(yml, 'utf8'),
    path.dirname(yml),
    readFileSync(keyFile, 'utf8'),
    pinned,
  );
  writeFileSync(yml, text);
  console.log(`Signed ${signed.join(', ')} as version ${yaml.load(text).version} in ${yml}.`);
  return 0;
}

if (isEntryScript(import.meta.url, process.argv[1])) {
  try {
    process.exitCode = main(process.argv.slice(2));
  } catch (e) {
    console.error(`sign-update: ${e instanceof Error ? e.message : String(e)}`);
    process.exitCode = 1;
  }
}
