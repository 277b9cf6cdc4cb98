// The layering rule of STYLE.md, enforced: each folder under src/ may import only the layers listed for it, and
// only main and preload may touch Electron. Relative imports are resolved to the layer they land in, so a path
// that wanders (`../../core/x` from the renderer) is caught however it is spelt.
import path from 'node:path';
import { builtinModules } from 'node:module';

export const LAYERS = {
  shared: { may: ['shared'], electron: false, node: false },
  core: { may: ['shared', 'core'], electron: false, node: true },
  sim: { may: ['shared', 'sim'], electron: false, node: true },
  main: { may: ['main', 'core', 'shared', 'sim'], electron: true, node: true },
  preload: { may: ['preload', 'shared'], electron: true, node: false },
  renderer: { may: ['renderer', 'shared'], electron: false, node: false },
  cli: { may: ['cli', 'core', 'shared', 'sim'], electron: false, node: true },
};

const builtins = new Set(builtinModules);

function layerOf(file) {
  const rel = path.relative(process.cwd(), file).split(path.sep);
  return rel[0] === 'src' && rel[1] in LAYERS ? rel[1] : null;
}

function check(context, node, source) {
  if (typeof source !== 'string') return;
  const filename = context.filename ?? context.getFilename();
  const from = layerOf(filename);
  if (!from) return;
  const rules = LAYERS[from];
  if (source.startsWith('.')) {
    const target = layerOf(path.resolve(path.dirname(filename), source));
    if (target && !rules.may.includes(target)) {
      context.report({ node, message: `src/${from} may not import src/${target} (allowed: ${rules.may.join(', ')})` });
    }
    return;
  }
  if (source === 'electron' || source.startsWith('electron/')) {
    if (!rules.electron) context.report({ node, message: `src/${from} may not import electron` });
    return;
  }
  const bare = source.startsWith('node:') ? source.slice(5) : source.split('/')[0];
  if ((source.startsWith('node:') || builtins.has(bare)) && !rules.node) {
    context.report({ node, message: `src/${from} is not Node code and may not import ${source}` });
  }
}

export default {
  rules: {
    layers: {
      meta: { type: 'problem', schema: [], docs: { description: 'Enforce the src/ layering of STYLE.md' } },
      create(context) {
        return {
          ImportDeclaration: (node) => check(context, node, node.source.value),
          ExportNamedDeclaration: (node) => node.source && check(context, node, node.source.value),
          ExportAllDeclaration: (node) => check(context, node, node.source.value),
          ImportExpression: (node) => node.source.type === 'Literal' && check(context, node, node.source.value),
          CallExpression: (node) => {
            if (node.callee.type === 'Identifier' && node.callee.name === 'require' && node.arguments[0]?.type === 'Literal') {
              check(context, node, node.arguments[0].value);
            }
          },
        };
      },
    },
  },
};
