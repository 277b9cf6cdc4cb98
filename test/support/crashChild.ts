// Crash tests' child processes: a test entry bundled once to plain JavaScript (spawning node on it costs a fraction of
// tsx's start-up, dozens of times over), run and SIGKILLed a given time after it first writes to stdout.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';

// From the module's own URL: the history bench (bench/history.ts) runs it under tsx, where there is no __dirname.
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export function bundleChild(entry: string, name: string): { file: string; dir: string; cleanup(): void } {
  mkdirSync(join(root, '.tmp'), { recursive: true });
  const dir = mkdtempSync(join(root, '.tmp', `${name}-`));
  const file = join(dir, 'child.mjs');
  buildSync({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: file,
    external: ['better-sqlite3'],
    logLevel: 'silent',
  });
  return { file, dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Runs the child with `args`; `killAfterMs` after its first output it is SIGKILLed ('killed'), unless it finished
 * by itself first with exit code 0 ('done'; with null it must). Anything else rejects with the child's stderr.
 */
export function runChild(file: string, args: string[], killAfterMs: number | null): Promise<'killed' | 'done'> {
  return new Promise((done, fail) => {
    const p = spawn(process.execPath, [file, ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    p.stderr.on('data', (d) => (err += d));
    p.stdout.once('data', () => {
      if (killAfterMs !== null) setTimeout(() => p.kill('SIGKILL'), killAfterMs);
    });
    p.stdout.resume();
    p.on('exit', (code, signal) => {
      if (signal === 'SIGKILL') done('killed');
      // A child that finished its work before the kill came is done, not a failure.
      else if (code === 0) done('done');
      else fail(new Error(`child exited ${code ?? signal}: ${err}`));
    });
  });
}

/**
 * Runs the child with `args` and SIGKILLs it at the first line of its output `when` accepts ('killed'), unless it
 * finished by itself first with exit code 0 ('done'). Anything else rejects with the child's stderr. `lines` gets every
 * line it wrote, in order.
 */
export function runChildUntil(
  file: string,
  args: string[],
  when: (line: string) => boolean,
  lines: string[] = [],
): Promise<'killed' | 'done'> {
  return new Promise((done, fail) => {
    const p = spawn(process.execPath, [file, ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    let partial = '';
    p.stderr.on('data', (d) => (err += d));
    p.stdout.on('data', (d: Buffer) => {
      const text = partial + d.toString();
      const parts = text.split('\n');
      partial = parts.pop() ?? '';
      for (const line of parts) {
        lines.push(line);
        if (p.exitCode === null && p.signalCode === null && when(line)) p.kill('SIGKILL');
      }
    });
    p.on('exit', (code, signal) => {
      if (signal === 'SIGKILL') done('killed');
      else if (code === 0) done('done');
      else fail(new Error(`child exited ${code ?? signal}: ${err}`));
    });
  });
}
