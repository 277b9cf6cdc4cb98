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

export function startThread(entry: string, workerData: unknown): Worker {
  if (!entry.endsWith('.ts')) return new Worker(entry, { workerData });
  // Node 20 gives a worker none of the parent's module hooks: tsx registers its own in the thread first, through its
  // ES module API (package exports: ./esm/api is index.mjs to `import`, index.cjs to `require`).
  const api = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href;
  const boot = `import(${JSON.stringify(api)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(pathToFileURL(entry).href)}); });`;
  return new Worker(boot, { eval: true, workerData });
}
