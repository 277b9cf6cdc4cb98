// The runtime import graph of the repository's source files, for the layering rule's cycle check. ESLint lints one
// file at a time, so the rest of the graph is read from disk here: each file's runtime imports are parsed once and
// kept until the file's mtime or size changes, and a specifier's resolution is kept while the file it found exists.
// One process (an ESLint run, an editor's language server, a test) therefore parses each file about once.
//
// What counts as an edge: a static `import`, `export ... from` or `import x = require()` of a relative specifier.
// Type-only imports (`import type`, or every name marked `type`) do not count: with verbatimModuleSyntax off they
// are erased before anything runs, so they cannot make modules evaluate in a loop (and the lint's
// consistent-type-imports rule makes every type-only import say so). Dynamic `import()` does not count either: it
// runs later, on demand, which is the way to load something lazily on purpose.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const PARSED = /\.(?:ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;
const EXTENSIONS = ['.ts', '.tsx', '.mts', '.js', '.jsx', '.mjs'];
const INDEXES = ['index.ts', 'index.tsx', 'index.js'];

/** @type {Map<string, { mtimeMs: number, size: number, specifiers: string[] }>} */
const parsed = new Map();
/** @type {Map<string, string>} a resolved base path (directory + specifier) → the file it found */
const resolutions = new Map();

function isFile(p) {
  return fs.statSync(p, { throwIfNoEntry: false })?.isFile() ?? false;
}

/** The file a relative specifier lands on, as TypeScript's bundler resolution finds it; null if none. */
export function resolveRelative(fromFile, specifier) {
  const base = path.resolve(path.dirname(fromFile), specifier);
  const known = resolutions.get(base);
  if (known && isFile(known)) return known;
  const candidates = [base, ...EXTENSIONS.map((ext) => base + ext), ...INDEXES.map((index) => path.join(base, index))];
  // `./x.js` names the TypeScript file `./x.ts` under the bundler and node16 resolutions.
  if (/\.[cm]?jsx?$/.test(base)) {
    const stem = base.replace(/\.([cm]?)js(x?)$/, '');
    candidates.splice(1, 0, `${stem}.ts`, `${stem}.tsx`, `${stem}.mts`, `${stem}.cts`);
  }
  const found = candidates.find(isFile) ?? null;
  if (found) resolutions.set(base, found);
  else resolutions.delete(base);
  return found;
}

const COMMENTS = /\/\*[\s\S]*?\*\/|\/\/[^\n]*/g;
const KEYWORDS = /\b(import|export)\b/g;
const typeOnlyList = (list) => {
  const names = list
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);
  // `type as x` is a value named `type`, renamed; `type X`, `type X as Y` and `type as as Y` are types.
  return names.length > 0 && names.every((n) => /^type\s+[\w$]/.test(n) && !/^type\s+as\s+[\w$]+$/.test(n));
};

/**
 * Whether the statement text between `import`/`export` and a module specifier's opening quote makes a runtime
 * edge: `import type ...`, `export type ...` and lists whose every name is marked `type` do not, nor does a
 * dynamic `import(...)`; anything else (a side-effect import, `* as`, a default, a value name) does.
 */
export function isRuntimeClause(keyword, clauseText) {
  const clause = clauseText.replace(COMMENTS, ' ').trim();
  if (keyword === 'import' && clause.startsWith('(')) return false;
  if (clause === '') return keyword === 'import';
  const body = clause
    .replace(/\bfrom$/, '')
    .replace(/=\s*require\s*\($/, '')
    .trim();
  if (/^type\s*[{*]/.test(body) || /^type\s+[\w$]+$/.test(body)) return false;
  const list = /^\{([\s\S]*)\}$/.exec(body);
  return !(list && typeOnlyList(list[1]));
}

/** The longest an import or export-from statement is taken to be, in characters. */
const STATEMENT = 4000;
/** Where an import or export-from statement may start: at the start of a line, as every one here does. */
const STATEMENT_START = /^(?:import\b|export\s*(?:type\s*)?[*{])/gm;

/**
 * The relative specifiers a source text imports at run time (see the header for what counts). TypeScript's
 * pre-processor finds the specifiers: it scans, so comments and strings cannot fool it, and it does not build a
 * syntax tree. It scans only the text up to the last line that starts like an import or export-from statement
 * (to that statement's end), which is a file's first lines: not scanning the rest makes reading the whole graph
 * several times cheaper. A top-level import is never indented, so none is missed; one that does not start its
 * line would be. The words before each specifier say whether it is erased.
 */
export function runtimeSpecifiersOf(text) {
  let last = -1;
  for (const m of text.matchAll(STATEMENT_START)) last = m.index;
  if (last < 0) return [];
  // That statement ends at its semicolon (or, written without one, within STATEMENT characters).
  const semicolon = text.indexOf(';', last);
  const region = text.slice(0, semicolon >= 0 && semicolon - last <= STATEMENT ? semicolon + 1 : last + STATEMENT);
  const out = [];
  for (const ref of ts.preProcessFile(region, true, false).importedFiles) {
    if (!ref.fileName.startsWith('.')) continue;
    const quote = ref.pos; // the opening quote
    const window = region.slice(Math.max(0, quote - STATEMENT), quote);
    let keyword = null;
    for (const m of window.matchAll(KEYWORDS)) keyword = m;
    if (keyword && isRuntimeClause(keyword[1], window.slice(keyword.index + keyword[0].length))) out.push(ref.fileName);
  }
  return out;
}

/** A file's runtime imports as read from disk now (parsed again only if it changed); [] if it is not source. */
function specifiersOnDisk(file) {
  if (!PARSED.test(file)) return [];
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  if (!stat?.isFile()) {
    parsed.delete(file);
    return [];
  }
  const hit = parsed.get(file);
  if (hit && hit.mtimeMs === stat.mtimeMs && hit.size === stat.size) return hit.specifiers;
  const specifiers = runtimeSpecifiersOf(fs.readFileSync(file, 'utf8'));
  parsed.set(file, { mtimeMs: stat.mtimeMs, size: stat.size, specifiers });
  return specifiers;
}

/**
 * A view of the graph for linting one file: `file`'s own edges are the ones given (from the text being linted,
 * which may differ from disk); every other file's are read from disk, once per view. Only files inside `root`
 * are followed.
 */
export function graphView(file, ownTargets, root) {
  const memo = new Map([[file, ownTargets]]);
  const inside = (f) => !path.relative(root, f).startsWith('..');
  const edgesOf = (f) => {
    let edges = memo.get(f);
    if (!edges) {
      edges = [];
      for (const spec of specifiersOnDisk(f)) {
        const target = resolveRelative(f, spec);
        if (target && inside(target)) edges.push(target);
      }
      memo.set(f, edges);
    }
    return edges;
  };
  /** Breadth-first from `starts`: the chain back to `file` from the nearest start that has one, or null. */
  const search = (starts) => {
    const previous = new Map(starts.map((s) => [s, null]));
    const queue = [...previous.keys()];
    for (let i = 0; i < queue.length; i++) {
      const at = queue[i];
      if (at === file) {
        const chain = [];
        for (let step = at; step !== null; step = previous.get(step)) chain.unshift(step);
        return chain;
      }
      for (const next of edgesOf(at)) {
        if (!previous.has(next)) {
          previous.set(next, at);
          queue.push(next);
        }
      }
    }
    return null;
  };
  let anyBack;
  return {
    /** The shortest chain of runtime imports from `target` back to the linted file (both ends included), or null. */
    pathBack(target) {
      // Most files are in no cycle: one search from all of the file's imports at once says so, and only then is
      // each import searched on its own to name the chain it closes.
      anyBack ??= search(ownTargets) !== null;
      return anyBack ? search([target]) : null;
    },
  };
}
