// The project's layering, enforced (the rule is quoted in each message, so nothing here points at a file elsewhere):
//   - Each folder under src/ imports only the layers listed for it: shared imports nothing of ours; core imports
//     shared; main and cli import core and shared; preload and renderer import shared only. Only main and preload
//     touch Electron.
//   - Code that is not Node code (shared, preload, renderer) imports no Node built-in and no Node-only package.
//   - Inside src/core the rooms are ordered (CORE_TIERS): a room imports its own files and rooms of lower tiers only.
//   - No import cycles among the files under src/ (runtime imports; see ./importGraph.js for what counts).
//   - One engine factory: `createEngine` is defined in src/core/engine.ts and imported only where ENGINE_BUILDERS says.
// Paths are resolved against the repository root (the folder above this file), never the working directory, so the
// lint says the same from any directory. Relative imports are resolved to the layer and room they land in, so a
// path that wanders (`../../core/x` from the renderer) is caught however it is spelt.
import path from 'node:path';
import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';
import { graphView, resolveRelative } from './importGraph.js';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SRC = path.join(REPO_ROOT, 'src');

export const LAYERS = {
  shared: { may: ['shared'], electron: false, node: false },
  core: { may: ['shared', 'core'], electron: false, node: true },
  sim: { may: ['shared', 'sim'], electron: false, node: true },
  main: { may: ['main', 'core', 'shared', 'sim'], electron: true, node: true },
  // The preload runs sandboxed (src/main/window.ts: sandbox: true): it can require electron and nothing of Node.
  preload: { may: ['preload', 'shared'], electron: true, node: false },
  renderer: { may: ['renderer', 'shared'], electron: false, node: false },
  cli: { may: ['cli', 'core', 'shared', 'sim'], electron: false, node: true },
};

/**
 * npm packages that run only under Node (native modules, sockets and HTTP agents, the Electron main side's
 * logging and updates, CLI parsing, build and test tools), barred wherever `node` is false above. The browser-safe
 * ones the page uses (react, react-dom, zustand, zod, uplot, @tanstack/react-virtual) are not listed.
 */
export const NODE_ONLY_PACKAGES = [
  'better-sqlite3',
  'keytar',
  'ws',
  'undici',
  'electron-log',
  'electron-updater',
  'eventsource-parser',
  'commander',
  'electron-builder',
  'electron-vite',
  'tsx',
  '@playwright/test',
  'playwright',
];

/**
 * The rooms of src/core, lowest tier first. A room is a folder of src/core or a top-level file (its name without
 * the extension). A room may import its own files and any room of a LOWER tier, never one of its own tier or
 * above; that is the data flow upstream → api/stream → monitor → store and host transport, with the composition
 * on top. Every room must be listed: a new one gets its place here before it imports or is imported by another.
 */
export const CORE_TIERS = [
  // Seams the host injects and pure utilities: they know no other room, so anything may use them.
  {
    rooms: ['clock', 'log', 'net', 'secrets', 'notifier', 'budget', 'fileModes'],
    why: 'injected seams and pure utilities',
  },
  // The two ends of the data: the store (all SQL; it never sees the network or the key) and the api (the one
  // request governor and its client; it never writes SQL). Neither imports the other.
  { rooms: ['store', 'api'], why: 'the store and the api client' },
  // Built on one of them: the stream client rides the api's governor; status projects the governor's state;
  // export writes CSV from store rows; profiles place and stamp store files; firstRun seeds a new demo profile; the
  // host kit (key intake, the scrubbed logger, one shutdown) gives every host the api's logger shape.
  { rooms: ['stream', 'status', 'export', 'profiles', 'firstRun', 'host'], why: 'built on the store or the api' },
  // Reports the trader reads from the history (the model scoreboard): store rows through pure scoring.
  { rooms: ['report'], why: 'reports read from the store' },
  // The monitor: watchlist, settled walk, specials, alert rules; it reads api and stream, writes the store.
  { rooms: ['monitor'], why: 'the monitor' },
  // The rule lab: the recorded history replayed through the monitor's own drop rules, scored as the reports score.
  { rooms: ['lab'], why: "the rule lab, on the monitor's rules" },
  // One service's engine (api, stream, monitor and store for one key) and the settings service that feeds the
  // monitor and the store.
  { rooms: ['engine', 'settingsService'], why: 'the engine factory and the settings service' },
  // What hosts see of the core: the session opens profiles and builds engines through the factory it
  // is given; pushes follow the session's current engine; handlers answer the contract's requests over both.
  { rooms: ['session'], why: 'the session' },
  { rooms: ['pushes'], why: 'the pushes' },
  { rooms: ['handlers'], why: 'the handlers' },
  // The composition root and the browser host transport: nothing in the core imports them.
  { rooms: ['core', 'bridge'], why: 'the composition root and the host transport' },
];

const TIER_OF = new Map(CORE_TIERS.flatMap((tier, i) => tier.rooms.map((room) => [room, i])));
const ORDER = CORE_TIERS.map((tier) => tier.rooms.join(', ')).join(' < ');

/**
 * The one engine factory and the files that may build engines with it directly: the composition root for the
 * hosts with a window (it hands the factory to the session), and `cli record`, which runs one engine headless.
 */
export const ENGINE_MODULE = 'src/core/engine.ts';
export const ENGINE_BUILDERS = ['src/core/core.ts', 'src/cli/record.ts'];

const builtins = new Set(builtinModules);
const nodeOnly = new Set(NODE_ONLY_PACKAGES);
const isTest = (file) => /\.test\.[cm]?[jt]sx?$/.test(file);
const fromRoot = (file) => path.relative(REPO_ROOT, file).split(path.sep).join('/');

function layerOf(file) {
  const top = path.relative(SRC, file).split(path.sep)[0];
  return Object.hasOwn(LAYERS, top) ? top : null;
}

/** The core room a file (or a path an import names) belongs to; null outside src/core. */
function roomOf(file) {
  const rel = path.relative(path.join(SRC, 'core'), file).split(path.sep);
  if (rel[0] === '..' || rel[0] === '' || path.isAbsolute(rel[0])) return null;
  return rel.length > 1 ? rel[0] : rel[0].replace(/\.test(?=\.)/, '').replace(/\.[cm]?[jt]sx?$/, '');
}

function packageOf(source) {
  const parts = source.split('/');
  return source.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

function checkCoreRooms(context, node, filename, target) {
  // Unit tests beside their code compose rooms freely, as the tests under test/ do; the order is for the app.
  if (isTest(filename)) return;
  const from = roomOf(filename);
  const to = roomOf(target);
  if (from === null || to === null || from === to) return;
  const a = TIER_OF.get(from);
  const b = TIER_OF.get(to);
  if (a === undefined || b === undefined) {
    const unknown = a === undefined ? from : to;
    context.report({
      node,
      message: `src/core/${unknown} has no place in the core's room order (CORE_TIERS in eslint/layering.js): give it a tier before src/core/${from} imports src/core/${to}`,
    });
  } else if (b >= a) {
    context.report({
      node,
      message: `src/core/${from} may not import src/core/${to}: a core room imports only rooms below it (${ORDER})`,
    });
  }
}

function checkEngineImport(context, node, filename, target, names) {
  if (isTest(filename) || fromRoot(target) !== ENGINE_MODULE) return;
  const file = fromRoot(filename);
  if (file === ENGINE_MODULE || ENGINE_BUILDERS.includes(file)) return;
  // The whole module (a namespace, `export *`, a dynamic import) carries the factory as well as a named import.
  if (names === null || names.includes('createEngine')) {
    context.report({
      node,
      message: `${file} may not import createEngine: there is one engine factory, and only ${ENGINE_BUILDERS.join(' and ')} build engines with it (hosts go through the session)`,
    });
  }
}

/** Which names an import or re-export takes from its module; null when it takes the whole module. */
function importedNames(node) {
  if (node.type === 'ImportDeclaration' || node.type === 'ExportNamedDeclaration') {
    const names = [];
    for (const s of node.specifiers ?? []) {
      if (s.type === 'ImportNamespaceSpecifier') return null;
      if (s.type === 'ImportSpecifier') names.push(s.imported.name ?? s.imported.value);
      else if (s.type === 'ImportDefaultSpecifier') names.push('default');
      else if (s.type === 'ExportSpecifier') names.push(s.local.name ?? s.local.value);
    }
    return names;
  }
  return null;
}

/** Whether an import or re-export is erased before run time (see ./importGraph.js). */
function typeOnly(node) {
  if (node.importKind === 'type' || node.exportKind === 'type') return true;
  const specifiers = node.specifiers ?? [];
  return specifiers.length > 0 && specifiers.every((s) => s.importKind === 'type' || s.exportKind === 'type');
}

function check(context, node, source, filename, cycleCandidates) {
  if (typeof source !== 'string') return;
  const from = layerOf(filename);
  if (!from) return;
  const rules = LAYERS[from];
  if (source.startsWith('.')) {
    const resolvedPath = path.resolve(path.dirname(filename), source);
    const target = layerOf(resolvedPath);
    if (target && !rules.may.includes(target)) {
      context.report({ node, message: `src/${from} may not import src/${target} (allowed: ${rules.may.join(', ')})` });
      return;
    }
    if (from === 'core' && target === 'core') checkCoreRooms(context, node, filename, resolvedPath);
    const file = resolveRelative(filename, source);
    if (!file) return;
    // A type-only import cannot build an engine, and cannot make modules evaluate in a loop.
    if (typeOnly(node)) return;
    checkEngineImport(context, node, filename, file, importedNames(node));
    const runtime =
      node.type === 'ImportDeclaration' ||
      node.type === 'ExportNamedDeclaration' ||
      node.type === 'ExportAllDeclaration' ||
      node.type === 'TSImportEqualsDeclaration';
    if (runtime && layerOf(file)) cycleCandidates.push({ node, file });
    return;
  }
  if (source === 'electron' || source.startsWith('electron/')) {
    if (!rules.electron) context.report({ node, message: `src/${from} may not import electron` });
    return;
  }
  if (rules.node) return;
  const bare = source.startsWith('node:') ? source.slice(5) : packageOf(source);
  if (source.startsWith('node:') || builtins.has(bare)) {
    context.report({ node, message: `src/${from} is not Node code and may not import ${source}` });
  } else if (nodeOnly.has(bare)) {
    context.report({
      node,
      message: `src/${from} is not Node code and may not import ${source}: it runs only under Node`,
    });
  }
}

function reportCycles(context, filename, candidates) {
  if (!candidates.length) return;
  const view = graphView(
    filename,
    candidates.map((c) => c.file),
    SRC,
  );
  for (const { node, file } of candidates) {
    const back = view.pathBack(file);
    if (back) {
      const chain = [filename, ...back].map(fromRoot).join(' → ');
      context.report({
        node,
        message: `import cycle: ${chain}. Modules under src/ may not import each other in a loop, directly or through others (type-only imports do not count); move what both need into a module of its own`,
      });
    }
  }
}

function checkEngineDeclaration(context, node, name, filename) {
  if (name !== 'createEngine' || !layerOf(filename) || isTest(filename) || fromRoot(filename) === ENGINE_MODULE) return;
  context.report({ node, message: `createEngine is defined once, in ${ENGINE_MODULE}: there is one engine factory` });
}

export default {
  rules: {
    layers: {
      meta: {
        type: 'problem',
        schema: [],
        docs: {
          description:
            'Enforce the src/ layering: layers, Node-only code, the core rooms, no cycles, one engine factory',
        },
      },
      create(context) {
        const filename = context.physicalFilename ?? context.filename ?? context.getFilename();
        const cycleCandidates = [];
        const at = (node, source) => check(context, node, source, filename, cycleCandidates);
        return {
          ImportDeclaration: (node) => at(node, node.source.value),
          ExportNamedDeclaration: (node) => node.source && at(node, node.source.value),
          ExportAllDeclaration: (node) => at(node, node.source.value),
          ImportExpression: (node) => node.source.type === 'Literal' && at(node, node.source.value),
          TSImportEqualsDeclaration: (node) =>
            node.moduleReference.type === 'TSExternalModuleReference' &&
            at(node, node.moduleReference.expression.value),
          CallExpression: (node) => {
            if (
              node.callee.type === 'Identifier' &&
              node.callee.name === 'require' &&
              node.arguments[0]?.type === 'Literal'
            ) {
              at(node, node.arguments[0].value);
            }
          },
          FunctionDeclaration: (node) => node.id && checkEngineDeclaration(context, node.id, node.id.name, filename),
          VariableDeclarator: (node) =>
            node.id.type === 'Identifier' && checkEngineDeclaration(context, node.id, node.id.name, filename),
          'Program:exit': () => reportCycles(context, filename, cycleCandidates),
        };
      },
    },
  },
};
