// The TypeScript compiler API over the project, for the scripts that read the store's shape: the codemod
// (scripts/codemods/store-roles.mjs) and the checks (scripts/store-shape.mjs). One program over the given tsconfigs'
// files, read from source, and the Store's roles as src/core/store/index.ts declares them.
import path from 'node:path';
import ts from 'typescript';

export const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
export const STORE_FILE = path.join(root, 'src', 'core', 'store', 'index.ts');
/** A path relative to the repository, '/'-separated. */
export const rel = (f) => path.relative(root, f).split(path.sep).join('/');

export function createProjectProgram(projects) {
  const rootNames = new Set();
  let options;
  for (const p of projects) {
    const host = { ...ts.sys, onUnRecoverableConfigFileDiagnostic() {} };
    const parsed = ts.getParsedCommandLineOfConfigFile(path.resolve(root, p), {}, host);
    if (!parsed) throw new Error(`cannot read ${p}`);
    for (const f of parsed.fileNames) rootNames.add(f);
    options ??= parsed.options;
  }
  // No project references and no emitted declarations: every import is read from its source.
  const checkOnly = { composite: false, noEmit: true, emitDeclarationOnly: false, declaration: false };
  return ts.createProgram([...rootNames], { ...options, ...checkOnly });
}

/**
 * The Store's symbol and type, its roles (the union StoreRole) with their types, its own members, and which role
 * each role member belongs to (a name in two roles, or a role member named like the Store's own, is an error: a
 * call site could not say which it means).
 */
export function storeShape(program) {
  const checker = program.getTypeChecker();
  const sf = program.getSourceFile(STORE_FILE);
  if (!sf) throw new Error(`${rel(STORE_FILE)} is not in the program`);
  const exports = checker.getExportsOfModule(checker.getSymbolAtLocation(sf));
  const storeSymbol = exports.find((s) => s.name === 'Store');
  const roleAlias = exports.find((s) => s.name === 'StoreRole');
  if (!storeSymbol || !roleAlias) throw new Error(`${rel(STORE_FILE)} exports no Store or StoreRole`);
  const storeType = checker.getDeclaredTypeOfSymbol(storeSymbol);
  const roleType = checker.getDeclaredTypeOfSymbol(roleAlias);
  const roles = (roleType.isUnion() ? roleType.types : [roleType]).map((t) => t.value);
  const topLevel = new Set(checker.getPropertiesOfType(storeType).map((p) => p.name));
  const roleOf = new Map();
  const roleDecls = new Map();
  const roleTypes = new Map();
  for (const role of roles) {
    const prop = storeType.getProperty(role);
    roleDecls.set(role, new Set(prop.declarations));
    const t = checker.getTypeOfSymbolAtLocation(prop, prop.declarations[0]);
    roleTypes.set(role, t);
    for (const m of checker.getPropertiesOfType(t)) {
      if (roleOf.has(m.name)) throw new Error(`member ${m.name} is in two roles: ${roleOf.get(m.name)} and ${role}`);
      if (topLevel.has(m.name)) throw new Error(`member ${m.name} of role ${role} is also the Store's own`);
      roleOf.set(m.name, role);
    }
  }
  return { checker, storeSymbol, storeType, roles, roleTypes, topLevel, roleOf, roleDecls };
}

/** A type whose properties include one of the Store's roles as the Store declares it (the Store, a Pick of it). */
export function isStoreLike(shape, type) {
  const t = shape.checker.getNonNullableType(type);
  if (t.isUnion()) return t.types.some((u) => isStoreLike(shape, u));
  for (const role of shape.roles) {
    const p = t.getProperty(role);
    if (p?.declarations?.some((d) => shape.roleDecls.get(role).has(d))) return true;
  }
  return false;
}

export const isUserFile = (sf) => !sf.isDeclarationFile && !sf.fileName.includes('/node_modules/');

/** file:line: what: the node's text (shortened). */
export function where(sf, node, what) {
  const { line } = sf.getLineAndCharacterOfPosition(node.getStart(sf));
  return `${rel(sf.fileName)}:${line + 1}: ${what}: ${node.getText(sf).replace(/\s+/g, ' ').slice(0, 80)}`;
}
