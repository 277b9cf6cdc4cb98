// Starts `npm run web` (or the host directly) as a real child process and reads the URL it prints.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const cliBundle = path.join(root, 'out', 'cli', 'index.js');

/**
 * The command line that runs the CLI with `args` (`cli('web', '--port', '0', …)` is the browser-mode host): plain
 * Node on the bundle out/cli/index.js, built once per run by `npm test` or Playwright's global set-up
 * (scripts/build-cli.mjs), instead of tsx compiling the sources in every host.
 */
export function cli(...args: string[]): string[] {
  if (!existsSync(cliBundle))
    throw new Error(
      `${path.relative(root, cliBundle)} is missing: the CLI bundle did not build (node scripts/build-cli.mjs)`,
    );
  return [process.execPath, cliBundle, ...args];
}

/**
 * The environment of a demo host under test: the world of `seed` at `pace` (src/sim/CONTROL.md, "Demo mode in tests"),
 * so a run meets the same matches, kick-offs and moves each time instead of a world drawn from the clock.
 */
export function seededDemo(seed: number, pace = 10): Record<string, string> {
  return { ODDSDESK_API_KEY: '', ODDSDESK_TEST_DEMO_SEED: String(seed), ODDSDESK_TEST_DEMO_PACE: String(pace) };
}

export interface WebHost {
  url: string;
  child: ChildProcess;
  output: () => string;
  stop(): Promise<void>;
}

export async function startWebHost(
  command: string[],
  env: Record<string, string> = {},
  timeoutMs = 60_000,
): Promise<WebHost> {
  // Settings and profiles of their own: a host under test never reads or writes the user's (or another test's).
  const dataDir = env['ODDSDESK_DATA_DIR'] ?? mkdtempSync(path.join(tmpdir(), 'oddsdesk-host-'));
  const child = spawn(command[0]!, command.slice(1), {
    cwd: root,
    env: { ...process.env, ODDSDESK_DATA_DIR: dataDir, ...env },
    detached: true, // its own process group, so npm's children stop with it
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL printed within ${timeoutMs} ms:\n${out}`)), timeoutMs);
    const look = () => {
      const m = /Open (http:\/\/127\.0\.0\.1:\d+\/#token=[0-9a-f]+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    child.stdout!.on('data', look);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`host exited with ${code}:\n${out}`));
    });
  });
  return {
    url,
    child,
    output: () => out,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch {
        return;
      }
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      if (child.exitCode === null) process.kill(-child.pid!, 'SIGKILL');
    },
  };
}
