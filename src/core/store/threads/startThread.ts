// The store's threads (the checkpointer, ./checkpointer.ts; the writer, ./writer.ts): where a thread's entry is, and
// how it is started.
//
// Where the entry is: beside the running module. From the sources (tsx, vitest) that is the .ts file, which Node
// cannot load by itself in a worker, so it is loaded through tsx's loader (a development dependency, present wherever
// the sources run); the CLI bundle (out/cli, scripts/build-cli.mjs) and Electron's main bundle (out/main,
// electron.vite.config.ts) each carry the thread's .js beside index.js.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

const here = path.dirname(fileURLToPath(import.meta.url));

/** A thread's entry (`name`.js, else `name`.ts) in `dir` (default: beside this module). */
export function threadEntry(name: string, what: string, dir = here): string {
  const js = path.join(dir, `${name}.js`);
  if (existsSync(js)) return js;
  const ts = path.join(dir, `${name}.ts`);
  if (existsSync(ts)) return ts;
  throw new Error(`${what} (${name}.js) is missing from ${dir}`);
}

/**
 * A store thread's young generation (MB). A worker otherwise gets V8's default for a main thread (48 MB on 64-bit):
 * the writer's garbage is one message at a time, dead once its transaction commits, and the checkpointer makes
 * almost none. Measured in a 240 s soak at 2,000 moves a second: the writer's heap sat at 49 MB with 13-29 MB in use,
 * a fixed slice of the host's memory that bought nothing.
 */
export const THREAD_YOUNG_GENERATION_MB = 8;

export function startThread(entry: string, workerData: unknown): Worker {
  const resourceLimits = { maxYoungGenerationSizeMb: THREAD_YOUNG_GENERATION_MB };
  if (!entry.endsWith('.ts')) return new Worker(entry, { workerData, resourceLimits });
  // Node 20 gives a worker none of the parent's module hooks: tsx registers its own in the thread first, through its
  // ES module API (package exports: ./esm/api is index.mjs to `import`, index.cjs to `require`).
  const api = pathToFileURL(
    createRequire(import.meta.url)
      .resolve('tsx/esm/api')
      .replace(/\.cjs$/, '.mjs'),
  ).href;
  const boot = `import(${JSON.stringify(api)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(pathToFileURL(entry).href)}); });`;
  return new Worker(boot, { eval: true, workerData, resourceLimits });
}
