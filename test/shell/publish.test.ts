// The update feed an installer is built with must be https (scripts/check-publish.mjs, electron-builder's beforePack
// hook): a plain-http feed would let anyone on the network path offer the app a "new version". With a feed, a Windows
// build must name its code-signing publisher, and a Linux release key must be an Ed25519 public key.
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  PUBLISHER_PLACEHOLDER as untypedPlaceholder,
  UPDATE_KEY_SOURCE as untypedKeySource,
  default as beforePack,
  publishProblems as untypedProblems,
  // @ts-expect-error: a plain .mjs script without types
} from '../../scripts/check-publish.mjs';
import { UPDATE_KEY_FILE } from '../../src/main/updates';

const publishProblems = untypedProblems as (publish: unknown) => string[];
const hook = beforePack as (
  context: unknown,
  read?: (file: string) => string | null,
  warn?: (line: string) => void,
) => Promise<void>;
const PUBLISHER_PLACEHOLDER = untypedPlaceholder as string;
const UPDATE_KEY_SOURCE = untypedKeySource as string;
const root = path.resolve(__dirname, '../..');
const yaml = createRequire(path.join(root, 'package.json'))('js-yaml') as { load(text: string): unknown };

describe('publish config check', () => {
  it('refuses a generic feed over http, or without a url', () => {
    expect(publishProblems({ provider: 'generic', url: 'http://updates.example/oddsdesk' })).toEqual([
      'publish url "http://updates.example/oddsdesk" is not https (provider generic)',
    ]);
    expect(
      publishProblems([{ provider: 'github' }, { provider: 'generic', url: 'HTTP://updates.example' }]),
    ).toHaveLength(1);
    expect(publishProblems({ provider: 'generic' })).toHaveLength(1);
    expect(publishProblems('generic')).toHaveLength(1);
    expect(publishProblems({ provider: 'generic', url: 'updates.example/oddsdesk' })).toHaveLength(1);
    expect(publishProblems({ provider: 's3', bucket: 'b', endpoint: 'http://minio.local:9000' })).toHaveLength(1);
  });

  it('accepts an https feed, a provider that is https by itself, and no feed at all', () => {
    expect(publishProblems({ provider: 'generic', url: 'https://updates.example/oddsdesk' })).toEqual([]);
    expect(publishProblems([{ provider: 'github', owner: 'o', repo: 'r' }])).toEqual([]);
    expect(publishProblems(null)).toEqual([]);
    expect(publishProblems(undefined)).toEqual([]);
  });

  it('runs before packing in npm run dist, and fails the build on an http feed (shared or per platform)', async () => {
    const config = yaml.load(readFileSync(path.join(root, 'electron-builder.yml'), 'utf8')) as {
      beforePack: string;
      publish: unknown;
    };
    expect(config.beforePack).toBe('./scripts/check-publish.mjs');
    expect(publishProblems(config.publish)).toEqual([]);
    const context = (publish: unknown, own?: unknown) => ({
      packager: { config: { ...config, publish }, platformSpecificBuildOptions: { publish: own } },
    });
    await expect(hook(context({ provider: 'generic', url: 'http://updates.example' }))).rejects.toThrow(
      /insecure update feed.*not https/,
    );
    await expect(hook(context(null, { provider: 'generic', url: 'http://updates.example' }))).rejects.toThrow(
      /not https/,
    );
    await expect(hook(context({ provider: 'generic', url: 'https://updates.example' }))).resolves.toBeUndefined();
    await expect(hook(context(null))).resolves.toBeUndefined();
  });
});

type Config = {
  publish: unknown;
  win: { signtoolOptions?: { publisherName?: unknown }; verifyUpdateCodeSignature?: boolean };
  linux: { extraResources: Array<{ from: string; to: string }> };
};
const config = yaml.load(readFileSync(path.join(root, 'electron-builder.yml'), 'utf8')) as Config;
const FEED = { provider: 'generic', url: 'https://updates.example/oddsdesk' };
/** A beforePack context for one platform, with the shared publish config and that platform's own options. */
const contextFor = (electronPlatformName: string, publish: unknown, own: Record<string, unknown> = {}) => ({
  electronPlatformName,
  packager: { projectDir: root, config: { ...config, publish }, platformSpecificBuildOptions: own },
});
const noKey = () => null;

describe('Windows signing fields', () => {
  it('ship as a placeholder publisher name in signtoolOptions (electron-builder 26), with the signature check on', () => {
    expect(
      JSON.parse(readFileSync(path.join(root, 'node_modules/electron-builder/package.json'), 'utf8')).version,
    ).toMatch(/^26\./);
    expect(config.win.signtoolOptions?.publisherName).toBe(PUBLISHER_PLACEHOLDER);
    expect(config.win.verifyUpdateCodeSignature).toBe(true);
  });

  it("pass electron-builder's own schema (a publisherName directly under win would not)", async () => {
    const { validateConfiguration } = createRequire(path.join(root, 'package.json'))(
      'app-builder-lib/out/util/config/config',
    ) as {
      validateConfiguration(config: unknown, debug: { isEnabled: boolean; add(): void }): Promise<void>;
    };
    const debug = { isEnabled: false, add: () => undefined };
    await expect(validateConfiguration(structuredClone(config), debug)).resolves.toBeUndefined();
    await expect(
      validateConfiguration({ ...structuredClone(config), win: { publisherName: 'Oddsdesk Ltd' } }, debug),
    ).rejects.toThrow(/configuration\.win should be/);
  });

  it('a Windows build with a feed is refused while the publisher name is missing, the placeholder, or its check is off', async () => {
    const win = (over: Record<string, unknown>) => ({ ...config.win, ...over });
    await expect(hook(contextFor('win32', FEED, win({})), noKey)).rejects.toThrow(
      /Windows installer with an update feed: .*still the placeholder/,
    );
    await expect(hook(contextFor('win32', FEED, win({ signtoolOptions: {} })), noKey)).rejects.toThrow(
      /publisherName is not set/,
    );
    await expect(
      hook(contextFor('win32', null, win({ signtoolOptions: { publisherName: ' ' }, publish: FEED })), noKey),
    ).rejects.toThrow(/publisherName is not set/);
    await expect(
      hook(
        contextFor(
          'win32',
          FEED,
          win({ signtoolOptions: { publisherName: 'Oddsdesk Ltd' }, verifyUpdateCodeSignature: false }),
        ),
        noKey,
      ),
    ).rejects.toThrow(/verifyUpdateCodeSignature is false/);
  });

  it('a Windows build with the real publisher name, or with no feed at all, goes ahead; other platforms do not need one', async () => {
    await expect(
      hook(contextFor('win32', FEED, { ...config.win, signtoolOptions: { publisherName: 'Oddsdesk Ltd' } }), noKey),
    ).resolves.toBeUndefined();
    await expect(
      hook(
        contextFor('win32', FEED, {
          ...config.win,
          signtoolOptions: {},
          azureSignOptions: { publisherName: 'Oddsdesk Ltd' },
        }),
        noKey,
      ),
    ).resolves.toBeUndefined();
    await expect(hook(contextFor('win32', null, config.win), noKey)).resolves.toBeUndefined();
    await expect(hook(contextFor('darwin', FEED, {}), noKey)).resolves.toBeUndefined();
  });
});

describe('the Linux release key', () => {
  const pair = generateKeyPairSync('ed25519');
  const publicPem = pair.publicKey.export({ type: 'spki', format: 'pem' }).toString();
  const privatePem = pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const keyFile = path.join(root, UPDATE_KEY_SOURCE);
  const notes: string[] = [];
  const linux = (pem: string | null, publish: unknown = FEED) =>
    hook(
      contextFor('linux', publish, config.linux),
      (f) => (f === keyFile ? pem : null),
      (l) => notes.push(l),
    );

  it('is packed from the file the check reads to the file the app reads', () => {
    expect(config.linux.extraResources).toContainEqual({ from: UPDATE_KEY_SOURCE, to: UPDATE_KEY_FILE });
  });

  it('is optional (the build says the app will then only announce updates), and accepted as an Ed25519 public key', async () => {
    notes.length = 0;
    await expect(linux(null)).resolves.toBeUndefined();
    expect(notes).toEqual([
      `Note: no ${UPDATE_KEY_SOURCE}: this Linux build will tell traders a new version exists but never install one itself (docs/releasing.md).`,
    ]);
    await expect(linux(publicPem)).resolves.toBeUndefined();
    await expect(linux(null, null)).resolves.toBeUndefined();
    expect(notes).toHaveLength(1);
  });

  it('refuses the private half (it would ship inside the app), another key type, or text that is no key', async () => {
    await expect(linux(privatePem)).rejects.toThrow(/holds a PRIVATE key/);
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 })
      .publicKey.export({ type: 'spki', format: 'pem' })
      .toString();
    await expect(linux(rsa)).rejects.toThrow(/rsa key, not Ed25519/);
    await expect(linux('not a key')).rejects.toThrow(/not a public key in PEM/);
  });
});

describe('the release page (issue 36)', () => {
  const withPage = (releasePage: unknown, where: 'metadata' | 'extraMetadata' = 'metadata') => {
    const context = contextFor('linux', FEED, config.linux) as { packager: Record<string, unknown> };
    if (where === 'metadata') context.packager.info = { metadata: { name: 'oddsdesk', releasePage } };
    else context.packager.config = { ...(context.packager.config as object), extraMetadata: { releasePage } };
    return hook(context, noKey, () => undefined);
  };

  it('is optional, and accepted as an https URL from package.json or extraMetadata', async () => {
    await expect(withPage(undefined)).resolves.toBeUndefined();
    await expect(withPage('https://oddsdesk.example/download')).resolves.toBeUndefined();
    await expect(withPage('https://oddsdesk.example/download', 'extraMetadata')).resolves.toBeUndefined();
  });

  it('refuses one the app would ignore: not https, not a URL, or with credentials', async () => {
    await expect(withPage('http://oddsdesk.example/download')).rejects.toThrow(
      /releasePage "http:\/\/oddsdesk\.example\/download" is not https/,
    );
    await expect(withPage('oddsdesk.example', 'extraMetadata')).rejects.toThrow(/is not a URL/);
    await expect(withPage('https://u:p@oddsdesk.example/')).rejects.toThrow(/carries credentials/);
  });
});
