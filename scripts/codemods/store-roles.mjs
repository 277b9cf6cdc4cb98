#!/usr/bin/env node
// Codemod (issue 38): the store by role. The Store (src/core/store/index.ts) is a composition of roles (`odds`,
// `history`, `bets`, ...; the union `StoreRole` names them); this rewrites its callers from the old flat shape:
//   x.member              -> x.<role>.member      where x's type is the Store or a Pick of it and lacks `member`
//   Pick<Store, 'a' | 'b'> -> Pick<Store, 'roleOfA' | 'roleOfB'>
//   Store['member']        -> Store['<role>']['member']
//   typeof x.member       -> typeof x.<role>.member
// Type information comes from the TypeScript compiler API over the project's tsconfig(s), so only receivers whose
// type is the Store are touched. Idempotent: a rewritten call site names a role, which the Store has, so a second run
// finds nothing. Re-runnable after merging branches that added call sites of the old shape.
//
// It runs in two passes: the type positions first (so a `Pick<Store, ...>` names roles), then, with the types
// checked again, the member accesses. What it cannot rewrite (a destructuring of the Store, an element access by a
// computed name, a Pick naming an unknown member) it lists, with file and line, for a hand fix.
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
for (const [name, pass] of [
  ['types (Pick<Store, ...>, Store[...])', typePass],
  ['member accesses (x.member -> x.role.member)', accessPass],
]) {
  const program = createProjectProgram(projects);
  const shape = storeShape(program);
  const edits = [];
  pass(program, shape, edits, problems);
  const { files, count } = apply(edits);
  total += count;
  for (const f of files) changed.add(f);
  console.log(`${name}: ${count} edit(s) in ${files.length} file(s)${dryRun ? ' (dry run: nothing written)' : ''}`);
  for (const f of files) console.log(`  ${f}`);
  if (dryRun) break; // the second pass needs the first one's output
}
const unique = [...new Set(problems)];
if (unique.length > 0) {
  console.log(`\n${unique.length} place(s) to fix by hand:`);
  for (const p of unique) console.log(`  ${p}`);
}
console.log(
  `\nstore-roles: ${total} edit(s) in ${changed.size} file(s); run prettier on them: npx prettier --write <files>`,
);
