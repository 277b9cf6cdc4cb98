// The log a trader can send when something goes wrong: one rotating file (electron-log; 2 MB, then main.old.log)
// in the app's logs folder, every line passed through the scrubber first, so the API key, the bridge token and
// proxy credentials never reach the disk. console.* in the main process goes to the same place. Written against
// electron-log's Node logger type so it runs (and is tested) without Electron.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { LogMessage, NodeLogger } from 'electron-log';
import type { Scrubber } from '../core/log/scrub';

export const LOG_FILE_NAME = 'main.log';
export const LOG_MAX_BYTES = 2 * 1024 * 1024;

export interface AppLog {
  /** The current log file. */
  file: string;
  dir: string;
  /** The last `count` lines of the current file (already scrubbed when written). */
  recentLines(count: number): string[];
}

export interface LogOptions {
  dir: string;
  scrubber: Scrubber;
  maxBytes?: number;
  /** Also catch uncaught exceptions and unhandled rejections into the file (the app does; tests may not). */
  catchErrors?: boolean;
}

/** electron-log hook: every argument of every message scrubbed before any transport sees it. */
export function scrubHook(scrubber: Scrubber) {
  return (message: LogMessage): LogMessage => ({ ...message, data: message.data.map((d) => scrubber.value(d)) });
}

export function configureLog(logger: NodeLogger, options: LogOptions): AppLog {
  const file = path.join(options.dir, LOG_FILE_NAME);
  logger.transports.file.resolvePathFn = () => file;
  logger.transports.file.maxSize = options.maxBytes ?? LOG_MAX_BYTES;
  logger.transports.file.format = '[{y}-{m}-{d} {h}:{i}:{s}.{ms}] [{level}] {text}';
  logger.transports.file.level = 'info';
  logger.hooks.push(scrubHook(options.scrubber));
  if (options.catchErrors) logger.errorHandler.startCatching({ showDialog: false });
  return {
    file,
    dir: options.dir,
    recentLines(count) {
      try {
        const lines = readFileSync(file, 'utf8')
          .split('\n')
          .filter((l) => l.length > 0);
        // Scrubbed once more: a line written before a secret was known is caught now.
        return lines.slice(-count).map((l) => options.scrubber.text(l));
      } catch {
        return [];
      }
    },
  };
}
