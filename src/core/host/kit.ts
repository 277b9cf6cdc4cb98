// The host kit: what every host (Electron main, browser mode, `cli record`) composes the core with, so each policy
// is written once. A host gives it only what it alone has (where log lines go, its keychain, its signals):
// - a scrubbed logger handed to every engine, and a scrubber that learns the API key however it was read (typed in
//   Settings, read back from the keychain after a restart, taken from the environment or a key file);
// - key intake: ODDSDESK_API_KEY or a key file (`--api-key-file FILE`, `-` for stdin), read once, checked against
//   the one key rule (src/shared/apiKey.ts), then removed from the environment;
// - shutdown: every part the host registered (bridge, core, recorder) closed in order, once, under ONE deadline.
import { readFileSync, statSync } from 'node:fs';
import { checkApiKey } from '../../shared/apiKey';
import type { Logger, LogLevel } from '../api/types';
import { createScrubber, type Scrubber } from '../log/scrub';
import type { SecretStore } from '../secrets/types';
import { errorMessage } from '../../shared/errors';

/** The variable a headless host reads the key from (once; it is deleted from the environment after). */
export const API_KEY_ENV = 'ODDSDESK_API_KEY';
/** How long a host waits for its parts to close (ticks flushed, database closed) before it exits anyway. */
export const SHUTDOWN_DEADLINE_MS = 5000;

const RANK: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };

export interface HostKitOptions {
  /** Where a (scrubbed) line goes: electron-log on the desktop, stderr in the CLI and browser mode. */
  sink(level: LogLevel, line: string): void;
  /** Lines below this level are not written (default `info`; `ODDSDESK_LOG_LEVEL=debug` in the hosts). */
  level?: LogLevel;
  /** A scrubber the host already has (Electron's file log is scrubbed by it too); a new one otherwise. */
  scrubber?: Scrubber;
  deadlineMs?: number;
  setTimer?: (fn: () => void, ms: number) => unknown;
}

/** Where the key came from, for the start-up line (never the key itself). */
export type KeyOrigin = 'environment' | 'file' | 'stdin';

export type KeyIntake =
  { ok: true; key: string; from: KeyOrigin } | { ok: true; key: null } | { ok: false; message: string };

export interface KeySources {
  /** The process environment: ODDSDESK_API_KEY is read from it and deleted. */
  env: NodeJS.ProcessEnv;
  /** `--api-key-file`: a path, or `-` for standard input. It wins over the environment. */
  file?: string;
  /** Reads all of standard input (injectable for tests). */
  readStdin?: () => string;
}

export type ShutdownOutcome = 'closed' | 'timeout' | 'failed';

export interface HostKit {
  scrubber: Scrubber;
  /** The logger for every engine and for the host's own lines: scrubbed, then given to the sink. */
  log: Logger;
  /** The host's keychain, teaching the scrubber every key read from it or stored into it. */
  secrets(store: SecretStore): SecretStore;
  /** The key from a key file, stdin or the environment; checked, learnt by the scrubber, gone from the environment. */
  takeKey(sources: KeySources): KeyIntake;
  /** A part to close at shutdown; parts close in the order they were registered. */
  onShutdown(name: string, close: () => Promise<void> | void): void;
  /** Closes every registered part once, within the one deadline; later calls get the same outcome. */
  shutdown(reason: string): Promise<ShutdownOutcome>;
  /**
   * The last resort of a process of its own (the CLI's `record` and `web`; Electron main has electron-log's): an
   * uncaught exception or unhandled rejection is logged through the scrubber (Node would print it raw, a key in its
   * message and all, to stderr), then the host shuts down within its deadline and exits with 1.
   */
  catchCrashes(target?: Pick<NodeJS.Process, 'on' | 'exit'>): void;
}

/** Resolves with how `close` ended, or 'timeout' once `timeoutMs` has passed without it ending. */
export async function closeWithin(
  close: () => Promise<void>,
  timeoutMs: number,
  setTimer: (fn: () => void, ms: number) => unknown = setTimeout,
): Promise<ShutdownOutcome> {
  let timedOut!: () => void;
  const timeout = new Promise<'timeout'>((r) => (timedOut = () => r('timeout')));
  const timer = setTimer(() => timedOut(), timeoutMs);
  const outcome = await Promise.race([
    close().then(
      () => 'closed' as const,
      () => 'failed' as const,
    ),
    timeout,
  ]);
  // A real timer must not hold the process open after a clean close.
  if (setTimer === setTimeout) clearTimeout(timer as ReturnType<typeof setTimeout>);
  return outcome;
}

/** A key file's text: one trailing line break is the editor's, not the key's. */
function keyFromText(text: string): string {
  return text.replace(/\r?\n$/, '');
}

export function createHostKit(options: HostKitOptions): HostKit {
  const scrubber = options.scrubber ?? createScrubber();
  const minRank = RANK[options.level ?? 'info'];
  const log: Logger = (level, message) => {
    if (RANK[level] < minRank) return;
    try {
      options.sink(level, scrubber.text(message));
    } catch {
      // A log that cannot be written (a closed stderr pipe) never stops the host.
    }
  };

  const parts: Array<{ name: string; close: () => Promise<void> | void }> = [];
  let done: Promise<ShutdownOutcome> | null = null;
  let catching = false;

  const kit: HostKit = {
    scrubber,
    log,
    secrets(store) {
      return {
        ...store,
        availability: () => store.availability(),
        async get(baseUrl) {
          const key = await store.get(baseUrl);
          scrubber.addSecret(key);
          return key;
        },
        async set(baseUrl, key) {
          scrubber.addSecret(key);
          await store.set(baseUrl, key);
        },
        delete: (baseUrl) => store.delete(baseUrl),
      };
    },
    takeKey(sources) {
      const envKey = sources.env[API_KEY_ENV];
      // Read once, then gone from this process's environment: no child process or diagnostics dump sees it. (The
      // environment the process was started with stays readable to the same account in /proc/<pid>/environ; a key
      // file or stdin does not — the README says so.)
      delete sources.env[API_KEY_ENV];
      let key: string;
      let from: KeyOrigin;
      if (sources.file !== undefined) {
        from = sources.file === '-' ? 'stdin' : 'file';
        try {
          if (sources.file === '-') key = keyFromText((sources.readStdin ?? (() => readFileSync(0, 'utf8')))());
          else {
            const mode = statSync(sources.file).mode;
            if (mode & 0o077)
              log('warn', `The key file ${sources.file} can be read by other accounts on this computer; chmod 600 it.`);
            key = keyFromText(readFileSync(sources.file, 'utf8'));
          }
        } catch (e) {
          const why = e instanceof Error && 'code' in e ? String((e as NodeJS.ErrnoException).code) : 'unreadable';
          return {
            ok: false,
            message:
              from === 'stdin'
                ? `The key could not be read from standard input (${why}).`
                : `The key file ${sources.file} could not be read (${why}).`,
          };
        }
      } else if (envKey) {
        key = envKey;
        from = 'environment';
      } else {
        return { ok: true, key: null };
      }
      // Learnt even when refused: a near-miss key is still a secret.
      scrubber.addSecret(key);
      const checked = checkApiKey(key);
      // The rule, never the key.
      if (!checked.ok)
        return {
          ok: false,
          message: `The key from ${from === 'environment' ? API_KEY_ENV : from === 'stdin' ? 'standard input' : sources.file} is not a usable key. ${checked.message}`,
        };
      return { ok: true, key, from };
    },
    onShutdown(name, close) {
      parts.push({ name, close });
    },
    shutdown(reason) {
      done ??= (async () => {
        log('info', `Shutting down: ${reason}`);
        const outcome = await closeWithin(
          async () => {
            let failed = false;
            for (const part of parts) {
              try {
                await part.close();
              } catch (e) {
                failed = true;
                log('error', `${part.name} did not close cleanly: ${errorMessage(e)}`);
              }
            }
            if (failed) throw new Error('a part failed to close');
          },
          options.deadlineMs ?? SHUTDOWN_DEADLINE_MS,
          options.setTimer,
        );
        if (outcome === 'timeout')
          log(
            'error',
            `Shutdown did not finish within ${Math.round((options.deadlineMs ?? SHUTDOWN_DEADLINE_MS) / 1000)} s; exiting anyway`,
          );
        else if (outcome === 'closed') log('info', 'Closed cleanly (ticks flushed, database closed)');
        return outcome;
      })();
      return done;
    },
    catchCrashes(target = process) {
      if (catching) return;
      catching = true;
      const crash = (what: string) => (e: unknown) => {
        const text = scrubber.value(e);
        log('error', `${what}: ${typeof text === 'string' ? text : JSON.stringify(text)}`);
        void kit.shutdown(what.toLowerCase()).finally(() => target.exit(1));
      };
      target.on('uncaughtException', crash('Uncaught exception'));
      target.on('unhandledRejection', crash('Unhandled promise rejection'));
    },
  };
  return kit;
}

/** A host's log level from ODDSDESK_LOG_LEVEL (debug, info, warn, error); info otherwise. */
export function logLevelFrom(env: NodeJS.ProcessEnv): LogLevel {
  const v = env['ODDSDESK_LOG_LEVEL'];
  return v === 'debug' || v === 'info' || v === 'warn' || v === 'error' ? v : 'info';
}

/** The CLI's and browser mode's sink: one stderr line per message, with the time. */
export function stderrSink(
  write: (text: string) => void = (t) => void process.stderr.write(t),
  now: () => number = Date.now,
) {
  return (level: LogLevel, line: string) =>
    write(`${new Date(now()).toISOString().slice(11, 19)} ${level === 'info' ? '' : `${level}: `}${line}\n`);
}
