#!/usr/bin/env node
// The store's shape (issue 38), checked with the TypeScript compiler API (run by `npm run lint` and counted by
// `npm test`):
//   (a) no type a caller receives from openStore (the Store itself and each of its roles) has more than 25 members;
//   (b) no `as` cast of a SQL row in src/: a cast whose operand is, or is derived directly from (a property, an
//       element, a variable or loop variable holding it), what a better-sqlite3 statement's .get/.all/.iterate
//       returns. Rows are typed where the statement is prepared instead: db.prepare<[number], TickRow>(sql). The
//       query modules' row readers (functions named *FromRow in src/core/store/queries/) may narrow a column.
// Prints what it checked and what it found; exits 1 on a finding.
//
// Usage: node scripts/store-shape.mjs [--project tsconfig.node.json ...]
import ts from 'typescript';
import { createProjectProgram, isUserFile, rel, storeShape, where } from './lib/store-types.mjs';

const MAX_MEMBERS = 25;
const ROW_METHODS = new Set(['get', 'all', 'iterate']);
const args = process.argv.slice(2);
const projects = args.flatMap((a, i) => (args[i - 1] === '--project' ? [a] : []));
if (projects.length === 0) projects.push('tsconfig.node.json');

const program = createProjectProgram(projects);
const shape = storeShape(program);
const { checker } = shape;
const findings = [];

// (a) the Store and what it hands out
const handedOut = [['Store', shape.storeType]];
for (const p of checker.getPropertiesOfType(shape.storeType)) {
  const t = checker.getTypeOfSymbolAtLocation(p, p.declarations[0]);
  if (t.flags & ts.TypeFlags.Object && t.getCallSignatures().length === 0) handedOut.push([`Store.${p.name}`, t]);
}
console.log(`store-shape (a): members of the Store and of each part of it (at most ${MAX_MEMBERS})`);
for (const [name, t] of handedOut) {
  const n = checker.getPropertiesOfType(t).length;
  const over = n > MAX_MEMBERS;
  console.log(`  ${over ? 'OVER' : 'ok  '} ${String(n).padStart(3)}  ${name}`);
  if (over) findings.push(`${name} has ${n} members (at most ${MAX_MEMBERS})`);
}

// (b) casts of SQL rows
const isStatement = (t) => {
  const s = checker.getNonNullableType(t).getSymbol();
  return (
    s?.name === 'Statement' && (s.declarations ?? []).some((d) => d.getSourceFile().fileName.includes('better-sqlite3'))
  );
};

/** A better-sqlite3 statement's get/all/iterate call. */
function isRowCall(e) {
  if (!ts.isCallExpression(e) || !ts.isPropertyAccessExpression(e.expression)) return false;
  const m = e.expression.name.text;
  return ROW_METHODS.has(m) && isStatement(checker.getTypeAtLocation(e.expression.expression));
}

/** Whether `e` is a row call's result, or is taken directly from one (a property, an element, a variable holding it). */
function fromRow(e, depth = 0) {
  if (depth > 4) return false;
  while (ts.isParenthesizedExpression(e) || ts.isNonNullExpression(e) || ts.isAsExpression(e)) e = e.expression;
  if (isRowCall(e)) return true;
  if (ts.isPropertyAccessExpression(e) || ts.isElementAccessExpression(e)) return fromRow(e.expression, depth + 1);
  if (ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken)
    return fromRow(e.left, depth + 1);
  if (ts.isIdentifier(e)) {
    const decl = checker.getSymbolAtLocation(e)?.valueDeclaration;
    if (!decl || !ts.isVariableDeclaration(decl)) return false;
    if (decl.initializer) return fromRow(decl.initializer, depth + 1);
    // for (const r of stmt.all()) / for (const r of rows)
    const loop = decl.parent?.parent;
    if (loop && ts.isForOfStatement(loop)) return fromRow(loop.expression, depth + 1);
  }
  return false;
}

function inRowReader(node, sf) {
  if (!rel(sf.fileName).startsWith('src/core/store/queries/')) return false;
  for (let n = node.parent; n; n = n.parent) {
    const name = ts.isFunctionLike(n) && n.name && ts.isIdentifier(n.name) ? n.name.text : null;
    const bound =
      ts.isFunctionLike(n) && n.parent && ts.isVariableDeclaration(n.parent) ? n.parent.name.getText(sf) : null;
    if (/FromRow$/.test(name ?? bound ?? '')) return true;
  }
  return false;
}

let files = 0;
let casts = 0;
let allowed = 0;
for (const sf of program.getSourceFiles().filter(isUserFile)) {
  if (!rel(sf.fileName).startsWith('src/')) continue;
  files++;
  const visit = (node) => {
    if (ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) {
      casts++;
      if (fromRow(node.expression)) {
        if (inRowReader(node, sf)) allowed++;
        else findings.push(where(sf, node, 'a cast of a SQL row (type the statement: db.prepare<Params, Row>)'));
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
}
console.log(
  `store-shape (b): ${casts} casts in ${files} files of src/ looked at; ${allowed} in the queries' row readers`,
);

if (findings.length > 0) {
  console.log(`\n${findings.length} finding(s):`);
  for (const f of findings) console.log(`  ${f}`);
  process.exit(1);
}
console.log('store-shape: no findings');
