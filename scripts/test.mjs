#!/usr/bin/env node
// `npm test`: every check and every test, then one line `N passed, N failed, N skipped`.
// Runs inside a private D-Bus session with an unlocked gnome-keyring when one is available, so the keychain tests
// talk to a real Secret Service; without it they are skipped with the reason printed.
//
// The run, on a machine with two cores:
//   1. at once: both bundles, the CLI (out/cli) and the renderer (out/web), each a counted step (a bundle that fails to
//      build fails the run, and nothing in the run builds it again: ODDSDESK_BUNDLES_BUILT=1 tells vitest's and
//      Playwright's global set-ups and `npm run web` so), the type check (`tsc -b`, incremental) and lint;
//   2. vitest (vitest.config.ts: in-process and I/O-bound files in parallel, process-heavy ones after, one at a time);
//   3. Playwright in Chromium; without Chromium (or without a renderer) its tests count as skipped, with the reason.
//      Not beside vitest: its hosts run on the wall clock, and vitest's CPU-bound files would starve them.
//   Output lines are tagged [unit] or [e2e].
// Two runs at once (in one checkout or two) share nothing they write: each run has its own temporary folder, its own
// keyring, its own Playwright output folder (test-results/run-<pid>, removed when the run passes), and every test
// takes ports and files of its own; the bundles are swapped in whole and are the same for the same sources.
// ODDSDESK_SOAK=full (`npm run test:soak`) runs the soaks at their full sizes; unset, they run small.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { setPriority, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

process.chdir(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..'));
// `npm run test:soak`: the same run with the soaks at their full sizes.
if (process.argv.includes('--soak')) process.env.ODDSDESK_SOAK = 'full';

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
  console.log(
    'note: no dbus-run-session/gnome-keyring here: keychain tests will be skipped (install gnome-keyring dbus-x11)',
  );
}

const started = Date.now();
const bin = (name) => path.join('node_modules', '.bin', name);
const tmp = mkdtempSync(path.join(tmpdir(), 'oddsdesk-test-'));
const totals = { passed: 0, failed: 0, skipped: 0 };
const failures = [];
const skips = [];
const phases = [];
const secs = (ms) => `${(ms / 1000).toFixed(1)} s`;
const soak = process.env.ODDSDESK_SOAK === 'full' ? 'full' : 'small';
const testEnv = { ODDSDESK_BUNDLES_BUILT: '1' };

/**
 * The steps that keep the cores busy (the type check, lint, vitest) run at a lower priority (nice 10, which their
 * children inherit), so that the end-to-end tests beside them, which mostly wait on their hosts, pages and the wall
 * clock, get a core the moment they need one: those get the time they are owed, the busy steps the rest.
 */
function lowerPriority(p) {
  try {
    if (p.pid) setPriority(p.pid, 10);
  } catch {
    // Not allowed here: the step runs at the usual priority.
  }
}

/**
 * Runs one step with its output shown live, each line tagged (`[unit] …`), so two steps can run side by side and
 * still be read; resolves to whether it exited 0.
 */
function step(name, tag, cmd, args, env = {}, nice = false) {
  console.log(`\n▶ ${name} ${tag}`);
  const t0 = Date.now();
  return new Promise((resolve) => {
    const p = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    if (nice) lowerPriority(p);
    for (const stream of [p.stdout, p.stderr]) {
      let rest = '';
      stream.setEncoding('utf8');
      stream.on('data', (d) => {
        const lines = (rest + d).split('\n');
        rest = lines.pop();
        for (const line of lines) process.stdout.write(`${tag} ${line}\n`);
      });
      stream.on('end', () => rest && process.stdout.write(`${tag} ${rest}\n`));
    }
    p.on('error', (e) => {
      console.log(`${tag} ${name}: ${e.message}`);
      phases.push([name, Date.now() - t0]);
      resolve(false);
    });
    p.on('close', (code) => {
      const ms = Date.now() - t0;
      phases.push([name, ms]);
      console.log(`\n▶ ${name}: ${code === 0 ? 'done' : `exited ${code}`} (${secs(ms)})`);
      resolve(code === 0);
    });
  });
}

/** Runs one step with its output held back and printed whole once it ends, so steps can run side by side. */
function quietStep(name, cmd, args, env = {}, nice = false) {
  const t0 = Date.now();
  return new Promise((resolve) => {
    const p = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    if (nice) lowerPriority(p);
    let out = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (out += d));
    const done = (ok) => {
      const ms = Date.now() - t0;
      phases.push([name, ms]);
      console.log(`\n▶ ${name}: ${ok ? 'ok' : 'FAILED'} (${secs(ms)})`);
      if (out.trim()) process.stdout.write(out.endsWith('\n') ? out : `${out}\n`);
      resolve(ok);
    };
    p.on('error', (e) => {
      out += `${e.message}\n`;
      done(false);
    });
    p.on('exit', (code) => done(code === 0));
  });
}

/**
 * Runs `fn` holding the lock `dir` (made with mkdir, which only one process can do; it holds the owner's pid, so a
 * lock left by a run that was killed, or older than ten minutes, is taken over), waiting for another run in this
 * checkout to let go of it first.
 */
async function withLock(dir, fn) {
  mkdirSync(path.dirname(dir), { recursive: true });
  for (;;) {
    try {
      mkdirSync(dir);
      writeFileSync(path.join(dir, 'pid'), String(process.pid));
      break;
    } catch {
      let owner = NaN;
      try {
        owner = Number(readFileSync(path.join(dir, 'pid'), 'utf8'));
      } catch {
        // Being made right now (no pid yet), or just let go of.
      }
      let alive = true;
      try {
        if (owner > 0) process.kill(owner, 0);
        // Older than any type check: its owner's pid has been taken by another process since.
        if (Date.now() - statSync(dir).mtimeMs > 10 * 60_000) alive = false;
      } catch {
        alive = false;
      }
      if (!alive) rmSync(dir, { recursive: true, force: true });
      else await new Promise((r) => setTimeout(r, 250));
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A check counts as one test: passed, or failed under its name. */
function count(name, ok) {
  if (ok) totals.passed++;
  else {
    totals.failed++;
    failures.push(name);
  }
  return ok;
}

// 1. Both bundles at once; the type check and lint start with them and run on beside the tests (step 2).
const checks = Promise.all([
  // One `tsc -b` at a time per checkout: its build info and declarations (node_modules/.cache/tsc) are written in
  // place, and another run's check could read one half written. The second waits, then finds little left to check.
  withLock(path.join('node_modules', '.cache', 'tsc.lock'), () =>
    quietStep('typecheck (tsc -b: node side, web side, end-to-end tests)', bin('tsc'), ['-b'], {}, true),
  ).then((ok) => count('typecheck', ok)),
  quietStep('lint (incl. layering rule)', bin('eslint'), ['.'], {}, true).then((ok) => count('lint', ok)),
  quietStep('format (prettier --check .)', bin('prettier'), ['--check', '.'], {}, true).then((ok) =>
    count('format (prettier --check .)', ok),
  ),
  // The store by role: no part of it a caller receives over 25 members, no cast of a SQL row (typed statements).
  quietStep(
    'function length (scripts/function-length.mjs)',
    process.execPath,
    ['scripts/function-length.mjs'],
    {},
    true,
  ).then((ok) => count('function length (scripts/function-length.mjs)', ok)),
  quietStep('store shape (scripts/store-shape.mjs)', process.execPath, ['scripts/store-shape.mjs'], {}, true).then(
    (ok) => count('store shape (scripts/store-shape.mjs)', ok),
  ),
]);
const [, webOk] = await Promise.all([
  quietStep('build the CLI and browser-mode host (out/cli)', process.execPath, ['scripts/build-cli.mjs']).then((ok) =>
    count('build the CLI bundle (out/cli)', ok),
  ),
  // Without ODDSDESK_BUNDLES_BUILT: this is the build.
  quietStep('build the renderer for browser mode (out/web)', process.execPath, ['scripts/build-web.mjs'], {
    ODDSDESK_BUNDLES_BUILT: '',
  }).then((ok) => count('build the renderer for browser mode (out/web)', ok && existsSync('out/web/index.html'))),
]);

// 2. vitest, then 3. Playwright.
console.log(
  `\n(soaks: ${soak} sizes${soak === 'full' ? '' : '; ODDSDESK_SOAK=full or `npm run test:soak` for the full ones'})`,
);

async function vitest() {
  const vitestJson = path.join(tmp, 'vitest.json');
  const vitestOk = await step(
    'unit and integration tests (vitest)',
    '[unit]',
    bin('vitest'),
    ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestJson}`],
    testEnv,
    true,
  );
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
    if (!vitestOk && r.numFailedTests === 0 && broken.length === 0) count('vitest exited with an error', false);
  } else if (!vitestOk) {
    count('vitest did not run', false);
  }
}

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const pwOutput = path.join('test-results', `run-${process.pid}`);
/** The end-to-end tests there are, counted without running them (no browser needed to list them). */
function skipE2e(reason) {
  const list = spawnSync(bin('playwright'), ['test', '--list', '--reporter=json'], {
    encoding: 'utf8',
    env: { ...process.env, ...testEnv },
    maxBuffer: 64 << 20,
  });
  let n = 0;
  try {
    const walk = (suite) => {
      for (const spec of suite.specs ?? []) n += spec.tests?.length ?? 1;
      for (const child of suite.suites ?? []) walk(child);
    };
    for (const suite of JSON.parse(list.stdout).suites ?? []) walk(suite);
  } catch {
    count('end-to-end tests could not be listed', false);
    console.log(list.stderr);
    return;
  }
  totals.skipped += n;
  skips.push(`${n} end-to-end tests: ${reason}`);
  console.log(`\nskipped: ${n} end-to-end tests: ${reason}`);
}

async function playwright() {
  if (!existsSync(chromium)) return skipE2e(`they need Chromium at ${chromium} (apt-get install chromium)`);
  if (!webOk) return skipE2e('the renderer did not build (see the failed build above)');
  const pwJson = path.join(tmp, 'playwright.json');
  // Playwright empties its output folder when it starts: this run's own, so a second run started meanwhile (in this
  // checkout) cannot empty it under this one. Removed when the run passes; kept (with each failure's context) when not.
  const pwOk = await step('end-to-end tests (Playwright, Chromium)', '[e2e]', bin('playwright'), ['test'], {
    ...testEnv,
    PW_JSON_OUTPUT: pwJson,
    ODDSDESK_E2E_OUTPUT: pwOutput,
  });
  if (existsSync(pwJson)) {
    const report = JSON.parse(readFileSync(pwJson, 'utf8'));
    const s = report.stats;
    totals.passed += s.expected;
    totals.failed += s.unexpected + (s.flaky ?? 0);
    totals.skipped += s.skipped;
    // A spec file that fails to load runs no test: count each such error, never as nothing.
    for (const e of report.errors ?? []) count(`e2e did not load: ${String(e.message ?? '').split('\n')[0]}`, false);
    if (!pwOk && s.unexpected === 0 && (report.errors ?? []).length === 0)
      count('playwright exited with an error', false);
    const walk = (suite) => {
      for (const spec of suite.specs ?? []) if (!spec.ok) failures.push(`e2e: ${spec.title}`);
      for (const child of suite.suites ?? []) walk(child);
    };
    for (const suite of report.suites ?? []) walk(suite);
  } else if (!pwOk) {
    count('playwright did not run', false);
  }
}

// One after the other: on two cores, vitest's CPU-bound files beside the end-to-end tests (which run on the wall
// clock) made both time out (measured: 6 timeouts, 896 s, where one after the other passes).
await checks;
await vitest();
await playwright();
if (totals.failed === 0) rmSync(pwOutput, { recursive: true, force: true });
else if (existsSync(pwOutput)) console.log(`\nEnd-to-end output of this run (each failure's context): ${pwOutput}`);
rmSync(tmp, { recursive: true, force: true });

console.log(
  `\nTimes: ${phases.map(([name, ms]) => `${name.replace(/ \(.*$/, '')} ${secs(ms)}`).join('; ')}; total ${secs(Date.now() - started)}`,
);
if (skips.length) console.log(`Skipped:\n${skips.map((s) => `  - ${s}`).join('\n')}`);
if (failures.length) console.log(`\nFailed:\n${failures.map((f) => `  ✗ ${f}`).join('\n')}`);
console.log(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(totals.failed === 0 ? 0 : 1);
