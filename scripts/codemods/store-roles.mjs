#!/usr/bin/env node
// Codemod (issue 38): the store by role. The Store (src/core/store/index.ts) is a composition of roles (`odds`,
// `history`, `bets`, ...; the union `StoreRole` names them); this rewrites its callers from the old flat shape:
//   x.member              -> x.<role>.member      where x's type is the Store or a Pick of it and lacks `member`
//   Pick<Store, 'a' | 'b'> -> Pick<Store, 'roleOfA' | 'roleOfB'>
//   Store['member']        -> Store['<role>']['member']
//   typeof x.member       -> typeof x.<role>.member
//   store: Store           -> store: Pick<Store, 'role' | ...>   a parameter or property whose uses all name roles
// Type information comes from the TypeScript compiler API over the project's tsconfig(s), so only receivers whose
// type is the Store are touched. Idempotent: a rewritten call site names a role, which the Store has, so a second run
// finds nothing. Re-runnable after merging branches that added call sites of the old shape.
//
// It runs in passes: the type positions first (so a `Pick<Store, ...>` names roles), then, with the types checked
// again, the member accesses, then the narrowing of declarations to the roles they use. What it cannot rewrite (a
// destructuring of the Store, an element access by a computed name, a Pick naming an unknown member) it lists, with
// file and line, for a hand fix.
//
// Usage: node scripts/codemods/store-roles.mjs [--dry-run] [--project tsconfig.node.json ...]
import fs from 'node:fs';
import ts from 'typescript';
import { createProjectProgram, isStoreLike, isUserFile, rel, storeShape, where } from '../lib/store-types.mjs';

const args = process.argv.slice(2);
const dryRun = args.includes('--dry-run');
const projects = args.flatMap((a, i) => (args[i - 1] === '--project' ? [a] : []));
if (projects.length === 0) projects.push('tsconfig.node.json');

const stripAlias = (checker, s) => (s && s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s);

function isStoreTypeNode(shape, node) {
  if (!ts.isTypeReferenceNode(node)) return false;
  const s = stripAlias(shape.checker, shape.checker.getSymbolAtLocation(node.typeName));
  return s === shape.storeSymbol;
}

/** The string literals of a type node: 'a' or 'a' | 'b'; null when it is anything else. */
function literalsOf(node) {
  const parts = ts.isUnionTypeNode(node) ? node.types : [node];
  const out = [];
  for (const p of parts) {
    if (!ts.isLiteralTypeNode(p) || !ts.isStringLiteral(p.literal)) return null;
    out.push(p.literal.text);
  }
  return out;
}

function typePass(program, shape, edits, problems) {
  for (const sf of program.getSourceFiles().filter(isUserFile)) {
    const visit = (node) => {
      // Pick<Store, 'a' | 'b'>
      if (
        ts.isTypeReferenceNode(node) &&
        ts.isIdentifier(node.typeName) &&
        node.typeName.text === 'Pick' &&
        node.typeArguments?.length === 2 &&
        isStoreTypeNode(shape, node.typeArguments[0])
      ) {
        const keys = node.typeArguments[1];
        const names = literalsOf(keys);
        if (!names) problems.push(where(sf, keys, 'Pick<Store, ...> with keys that are not string literals'));
        else if (names.some((n) => !shape.topLevel.has(n))) {
          const out = [];
          for (const n of names) {
            const role = shape.topLevel.has(n) ? n : shape.roleOf.get(n);
            if (!role) problems.push(where(sf, keys, `Pick<Store, ...> names '${n}', a member of no role`));
            else if (!out.includes(role)) out.push(role);
          }
          if (out.length > 0) edit(edits, sf, keys, out.map((r) => `'${r}'`).join(' | '));
        }
      }
      // Store['member']
      if (ts.isIndexedAccessTypeNode(node) && isStoreTypeNode(shape, node.objectType)) {
        const names = literalsOf(node.indexType);
        const n = names?.length === 1 ? names[0] : null;
        if (n !== null && !shape.topLevel.has(n)) {
          const role = shape.roleOf.get(n);
          if (role) edit(edits, sf, node.indexType, `'${role}']['${n}'`);
          else problems.push(where(sf, node, `Store['${n}'] names a member of no role`));
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
}

function accessPass(program, shape, edits, problems) {
  const { checker } = shape;
  for (const sf of program.getSourceFiles().filter(isUserFile)) {
    const visit = (node) => {
      if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.name)) {
        const m = node.name.text;
        const role = shape.roleOf.get(m);
        if (role && isStoreLike(shape, checker.getTypeAtLocation(node.expression))) {
          edits.push({ sf, pos: node.name.getStart(sf), end: node.name.getStart(sf), text: `${role}.` });
        }
      }
      // typeof x.member (a type query names the member by a qualified name)
      if (ts.isQualifiedName(node) && ts.isTypeQueryNode(node.parent)) {
        const role = shape.roleOf.get(node.right.text);
        if (role && isStoreLike(shape, checker.getTypeAtLocation(node.left))) {
          edits.push({ sf, pos: node.right.getStart(sf), end: node.right.getStart(sf), text: `${role}.` });
        }
      }
      if (ts.isVariableDeclaration(node) && ts.isObjectBindingPattern(node.name) && node.initializer) {
        if (isStoreLike(shape, checker.getTypeAtLocation(node.initializer))) {
          const old = node.name.elements.filter((e) => shape.roleOf.has((e.propertyName ?? e.name).getText(sf)));
          if (old.length > 0) problems.push(where(sf, node, 'destructuring of the Store by member: by role by hand'));
        }
      }
      if (ts.isElementAccessExpression(node) && isStoreLike(shape, checker.getTypeAtLocation(node.expression))) {
        const arg = node.argumentExpression;
        if (!ts.isStringLiteral(arg) || shape.roleOf.has(arg.text))
          problems.push(where(sf, node, 'element access on the Store: by role by hand'));
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
}

/**
 * A parameter or a property declared `: Store` (outside the store) whose every use names its roles: `x.role...`, or
 * a hand-over where a Pick of the Store is expected. Such a declaration becomes `Pick<Store, 'role' | ...>`, so the
 * service takes only the roles it uses. A use it cannot read (a destructuring, a hand-over where the whole Store is
 * expected, a variable holding it) keeps the declaration as it is. Run to a fixed point: a narrowed callee can let a
 * caller narrow too.
 */
function narrowPass(program, shape, edits) {
  const { checker } = shape;
  const own = new Set([...shape.topLevel]);
  const candidates = new Map();
  for (const sf of program.getSourceFiles().filter(isUserFile)) {
    if (rel(sf.fileName).startsWith('src/core/store/')) continue;
    const visit = (node) => {
      if (
        (ts.isParameter(node) || ts.isPropertySignature(node)) &&
        node.type &&
        isStoreTypeNode(shape, node.type) &&
        ts.isIdentifier(node.name)
      ) {
        const symbol = checker.getSymbolAtLocation(node.name);
        if (symbol) candidates.set(symbol, { sf, node, used: new Set(), readable: true });
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  if (candidates.size === 0) return;
  for (const sf of program.getSourceFiles().filter(isUserFile)) {
    const visit = (node) => {
      if (ts.isIdentifier(node) && !ts.isParameter(node.parent) && !ts.isPropertySignature(node.parent)) {
        const symbol = checker.getSymbolAtLocation(node);
        const c = symbol && candidates.get(symbol);
        if (c && c.readable) use(c, node);
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  function use(c, id) {
    // deps.store: the reference is the property access itself
    const ref = ts.isPropertyAccessExpression(id.parent) && id.parent.name === id ? id.parent : id;
    const parent = ref.parent;
    if (ts.isPropertyAccessExpression(parent) && parent.expression === ref && own.has(parent.name.text)) {
      c.used.add(parent.name.text);
      return;
    }
    if (ts.isShorthandPropertyAssignment(parent) || ts.isBindingElement(parent)) return void (c.readable = false);
    const expected = checker.getContextualType(ref);
    if (!expected || !isStoreLike(shape, expected)) return void (c.readable = false);
    const t = checker.getNonNullableType(expected);
    for (const m of own) {
      const p = t.getProperty(m);
      if (!p) continue;
      if (shape.roles.includes(m) && !p.declarations?.some((d) => shape.roleDecls.get(m).has(d))) continue;
      c.used.add(m);
    }
    if ([...own].every((m) => c.used.has(m))) c.readable = false; // the whole Store is expected
  }
  for (const c of candidates.values()) {
    if (!c.readable || c.used.size === 0) continue;
    const order = [...shape.topLevel].filter((m) => c.used.has(m));
    edit(edits, c.sf, c.node.type, `Pick<Store, ${order.map((m) => `'${m}'`).join(' | ')}>`);
  }
}

function edit(edits, sf, node, text) {
  edits.push({ sf, pos: node.getStart(sf), end: node.getEnd(), text });
}

/** Applies the edits file by file, last first; returns the files changed and the number of edits. */
function apply(edits) {
  const byFile = new Map();
  for (const e of edits) {
    const list = byFile.get(e.sf.fileName) ?? [];
    list.push(e);
    byFile.set(e.sf.fileName, list);
  }
  let count = 0;
  for (const [file, list] of byFile) {
    list.sort((a, b) => b.pos - a.pos || b.end - a.end);
    let text = list[0].sf.text;
    let last = Infinity;
    for (const e of list) {
      if (e.end > last) continue; // overlapping: the outer edit already covers it
      text = text.slice(0, e.pos) + e.text + text.slice(e.end);
      last = e.pos;
      count++;
    }
    if (!dryRun) fs.writeFileSync(file, text);
  }
  return { files: [...byFile.keys()].map(rel).sort(), count };
}

const problems = [];
let total = 0;
const changed = new Set();
const passes = [
  ['types (Pick<Store, ...>, Store[...])', typePass],
  ['member accesses (x.member -> x.role.member)', accessPass],
  ['declarations (store: Store -> Pick<Store, roles used>)', narrowPass],
];
for (const [name, pass] of passes) {
  // The narrowing runs again while it finds more (a narrowed callee lets its callers narrow).
  for (let round = 1; ; round++) {
    const program = createProjectProgram(projects);
    const shape = storeShape(program);
    const edits = [];
    pass(program, shape, edits, problems);
    const { files, count } = apply(edits);
    total += count;
    for (const f of files) changed.add(f);
    const label = pass === narrowPass ? `${name}, round ${round}` : name;
    console.log(`${label}: ${count} edit(s) in ${files.length} file(s)${dryRun ? ' (dry run: nothing written)' : ''}`);
    for (const f of files) console.log(`  ${f}`);
    if (dryRun || pass !== narrowPass || count === 0) break;
  }
  if (dryRun) break; // each pass needs the one before it written
}
const unique = [...new Set(problems)];
if (unique.length > 0) {
  console.log(`\n${unique.length} place(s) to fix by hand:`);
  for (const p of unique) console.log(`  ${p}`);
}
console.log(
  `\nstore-roles: ${total} edit(s) in ${changed.size} file(s); run prettier on them: npx prettier --write <files>`,
);
