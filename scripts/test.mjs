#!/usr/bin/env node
// `npm test`: every check and every test, then one line `N passed, N failed[, N skipped]`.
// Runs inside a private D-Bus session with an unlocked gnome-keyring when one is available, so the keychain tests
// talk to a real Secret Service; without it they are skipped with the reason printed.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const has = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;

if (!process.env.ODDSDESK_TEST_INNER && has('dbus-run-session') && has('gnome-keyring-daemon')) {
  // A keyring of its own in a throwaway folder: the tests never touch the user's keyrings, and a keyring left by an
  // earlier run with another password cannot lock them out.
  const keyringHome = mkdtempSync(path.join(tmpdir(), 'oddsdesk-keyring-'));
  const inner = `echo -n oddsdesk-test | gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>&1; exec node scripts/test.mjs`;
  const r = spawnSync('dbus-run-session', ['--', 'sh', '-c', inner], {
    stdio: 'inherit',
    env: { ...process.env, ODDSDESK_TEST_INNER: '1', ODDSDESK_KEYRING: '1', XDG_DATA_HOME: keyringHome },
  });
  rmSync(keyringHome, { recursive: true, force: true });
  process.exit(r.status ?? 1);
}
if (!process.env.ODDSDESK_KEYRING) {
  console.log('note: no dbus-run-session/gnome-keyring here: keychain tests will be skipped (install gnome-keyring dbus-x11)');
}

const tmp = mkdtempSync(path.join(tmpdir(), 'oddsdesk-test-'));
const totals = { passed: 0, failed: 0, skipped: 0 };
const failures = [];

function step(name, cmd, args, env = {}) {
  console.log(`\n▶ ${name}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  return r.status === 0;
}

function check(name, cmd, args) {
  if (step(name, cmd, args)) totals.passed++;
  else {
    totals.failed++;
    failures.push(name);
  }
}

check('typecheck (node side)', 'npx', ['tsc', '-p', 'tsconfig.node.json', '--noEmit']);
check('typecheck (web side)', 'npx', ['tsc', '-p', 'tsconfig.web.json', '--noEmit']);
check('typecheck (end-to-end tests)', 'npx', ['tsc', '-p', 'tsconfig.e2e.json', '--noEmit']);
check('lint (incl. layering rule)', 'npx', ['eslint', '.']);

const vitestJson = path.join(tmp, 'vitest.json');
const vitestOk = step('unit and integration tests (vitest)', 'npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestJson}`]);
if (existsSync(vitestJson)) {
  const r = JSON.parse(readFileSync(vitestJson, 'utf8'));
  totals.passed += r.numPassedTests;
  totals.failed += r.numFailedTests;
  totals.skipped += r.numPendingTests + r.numTodoTests;
  // A suite that fails to load has no tests to count: count it as a failure, never as nothing.
  const broken = r.testResults.filter((s) => s.status === 'failed' && s.assertionResults.length === 0);
  totals.failed += broken.length;
  for (const s of broken) failures.push(`suite failed to run: ${path.relative(process.cwd(), s.name)}`);
  for (const s of r.testResults)
    for (const a of s.assertionResults) if (a.status === 'failed') failures.push(a.fullName);
} else if (!vitestOk) {
  totals.failed++;
  failures.push('vitest did not run');
}

const pwJson = path.join(tmp, 'playwright.json');
let pwOk = true;
if (existsSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium')) {
  step('build the renderer for browser mode', 'npx', ['vite', 'build', '--config', 'vite.web.config.ts', '--logLevel', 'warn']);
  pwOk = step('end-to-end tests (Playwright, Chromium)', 'npx', ['playwright', 'test'], { PW_JSON_OUTPUT: pwJson });
} else {
  console.log('skipped: end-to-end tests need Chromium at /usr/bin/chromium (apt-get install chromium)');
}
if (existsSync(pwJson)) {
  const report = JSON.parse(readFileSync(pwJson, 'utf8'));
  const s = report.stats;
  totals.passed += s.expected;
  totals.failed += s.unexpected + (s.flaky ?? 0);
  totals.skipped += s.skipped;
  // A spec file that fails to load runs no test: count each such error, never as nothing.
  for (const e of report.errors ?? []) {
    totals.failed++;
    failures.push(`e2e did not load: ${String(e.message ?? '').split('\n')[0]}`);
  }
  if (!pwOk && s.unexpected === 0 && (report.errors ?? []).length === 0) {
    totals.failed++;
    failures.push('playwright exited with an error');
  }
  const walk = (suite) => {
    for (const spec of suite.specs ?? []) if (!spec.ok) failures.push(`e2e: ${spec.title}`);
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of JSON.parse(readFileSync(pwJson, 'utf8')).suites ?? []) walk(suite);
} else if (!pwOk) {
  totals.failed++;
  failures.push('playwright did not run');
}
rmSync(tmp, { recursive: true, force: true });

if (failures.length) console.log(`\nFailed:\n${failures.map((f) => `  ✗ ${f}`).join('\n')}`);
console.log(`\n${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`);
process.exit(totals.failed === 0 ? 0 : 1);
