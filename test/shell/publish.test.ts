// The update feed an installer is built with must be https (scripts/check-publish.mjs, electron-builder's beforePack
// hook): a plain-http feed would let anyone on the network path offer the app a "new version".
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without types
import beforePack, { publishProblems as untypedProblems } from '../../scripts/check-publish.mjs';

const publishProblems = untypedProblems as (publish: unknown) => string[];
const hook = beforePack as (context: unknown) => Promise<void>;
const root = path.resolve(__dirname, '../..');
const yaml = createRequire(path.join(root, 'package.json'))('js-yaml') as { load(text: string): unknown };

describe('publish config check', () => {
  it('refuses a generic feed over http, or without a url', () => {
    expect(publishProblems({ provider: 'generic', url: 'http://updates.example/oddsdesk' })).toEqual([
      'publish url "http://updates.example/oddsdesk" is not https (provider generic)',
    ]);
    expect(publishProblems([{ provider: 'github' }, { provider: 'generic', url: 'HTTP://updates.example' }])).toHaveLength(1);
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
    const config = yaml.load(readFileSync(path.join(root, 'electron-builder.yml'), 'utf8')) as { beforePack: string; publish: unknown };
    expect(config.beforePack).toBe('./scripts/check-publish.mjs');
    expect(publishProblems(config.publish)).toEqual([]);
    const context = (publish: unknown, own?: unknown) => ({ packager: { config: { ...config, publish }, platformSpecificBuildOptions: { publish: own } } });
    await expect(hook(context({ provider: 'generic', url: 'http://updates.example' }))).rejects.toThrow(/insecure update feed.*not https/);
    await expect(hook(context(null, { provider: 'generic', url: 'http://updates.example' }))).rejects.toThrow(/not https/);
    await expect(hook(context({ provider: 'generic', url: 'https://updates.example' }))).resolves.toBeUndefined();
    await expect(hook(context(null))).resolves.toBeUndefined();
  });
});
