// Runs the CLI (`npm run cli -- …`) as a real child process and collects its output. The child is plain Node on the
// bundle out/cli/index.js (scripts/build-cli.mjs; `npm test` and vitest's global set-up build it once per run), not
// tsx compiling the sources again in every child.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

export const root = path.resolve(__dirname, '../..');
export const cliBundle = path.join(root, 'out', 'cli', 'index.js');

/** The command line that starts the CLI with `args`: `node out/cli/index.js …args`. */
export function cliCommand(args: string[]): string[] {
  if (!existsSync(cliBundle))
    throw new Error(
      `${path.relative(root, cliBundle)} is missing: the CLI bundle did not build (node scripts/build-cli.mjs)`,
    );
  return [process.execPath, cliBundle, ...args];
}

export interface CliRun {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
  /** The JSON lines printed on stdout so far. */
  lines: () => Array<Record<string, unknown>>;
}

/** Runs the CLI; `stdin`, when given, is written to its standard input and closed. */
export function runCli(args: string[], env: Record<string, string | undefined> = {}, stdin?: string): CliRun {
  const [cmd, ...cmdArgs] = cliCommand(args);
  const child = spawn(cmd!, cmdArgs, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: [stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  if (stdin !== undefined) child.stdin!.end(stdin);
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
