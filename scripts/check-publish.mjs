// The update feed an installer is built with must be https: electron-updater downloads and installs whatever that
// feed offers, so a plain-http feed would let anyone on the network path ship the trader a "new version". Runs as
// electron-builder's beforePack hook (electron-builder.yml), so `npm run dist -- -c.publish.url=http://…` fails
// before anything is packed; the packaged app refuses such a feed again at runtime (src/main/updates.ts).

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
    if (provider === 'generic' && (typeof entry.url !== 'string' || entry.url === '')) problems.push('publish provider generic needs a url (https)');
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
      if (protocol !== 'https:') problems.push(`publish ${key} ${JSON.stringify(String(value))} is not https (provider ${provider ?? '?'})`);
    }
  }
  return problems;
}

/** electron-builder's beforePack hook: the shared publish config and this platform's own are both checked. */
export default async function beforePack(context) {
  const packager = context.packager;
  const problems = [...publishProblems(packager.config?.publish), ...publishProblems(packager.platformSpecificBuildOptions?.publish)];
  if (problems.length > 0) throw new Error(`Refusing to build with an insecure update feed: ${problems.join('; ')}`);
}
