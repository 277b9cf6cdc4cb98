// Runs `npm run cli -- …` as a real child process (through tsx, as npm would) and collects its output.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

export const root = path.resolve(__dirname, '../..');

export interface CliRun {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
  /** The JSON lines printed on stdout so far. */
  lines: () => Array<Record<string, unknown>>;
}

export function runCli(args: string[], env: Record<string, string | undefined> = {}): CliRun {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/index.ts', ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    lines: () =>
      out
        .split('\n')
        .filter((l) => l.trim())
        .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}
