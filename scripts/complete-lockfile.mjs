#!/usr/bin/env node
// Some npm registry mirrors serve only the platform packages of the platforms they build for. `npm install`
// against such a mirror writes a lock without entries for the other platforms' optional packages (rollup's
// @rollup/rollup-<os>-<cpu>), and `npm ci` then refuses the lock as out of sync. This adds the missing entries,
// described as npm itself would (optional, with their os/cpu/libc), so the lock is complete for every platform:
// npm skips them where they do not fit and fetches the right one on a user's machine.
import { readFileSync, writeFileSync } from 'node:fs';

const lockPath = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(lockPath, 'utf8'));
const packages = lock.packages;

const CPU = {
  arm: 'arm',
  'arm-eabi': 'arm',
  arm64: 'arm64',
  x64: 'x64',
  ia32: 'ia32',
  loong64: 'loong64',
  ppc64: 'ppc64',
  riscv64: 'riscv64',
  s390x: 's390x',
};

function describe(name) {
  const m = /^@rollup\/rollup-([a-z0-9]+)-([a-z0-9]+)(?:-([a-z0-9]+))?$/.exec(name);
  if (!m) return null;
  const [, os, cpu, abi] = m;
  const entry = { os: [os], cpu: [CPU[cpu === 'arm' && abi === 'eabi' ? 'arm-eabi' : cpu] ?? cpu] };
  if (os === 'linux' && abi) entry.libc = [abi.startsWith('musl') ? 'musl' : 'glibc'];
  return entry;
}

let added = 0;
for (const [key, pkg] of Object.entries(packages)) {
  for (const [dep, version] of Object.entries(pkg.optionalDependencies ?? {})) {
    const base = key ? `${key}/node_modules/${dep}` : `node_modules/${dep}`;
    if (packages[base] || packages[`node_modules/${dep}`]) continue;
    const platform = describe(dep);
    if (!platform) continue;
    packages[`node_modules/${dep}`] = {
      version,
      ...(platform.cpu && { cpu: platform.cpu }),
      ...(pkg.dev ? { dev: true } : {}),
      license: 'MIT',
      optional: true,
      os: platform.os,
      ...(platform.libc ? { libc: platform.libc } : {}),
    };
    added++;
  }
}
lock.packages = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
);
writeFileSync(lockPath, JSON.stringify(lock, null, 2) + '\n');
console.log(`complete-lockfile: added ${added} platform entries`);
