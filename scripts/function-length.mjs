#!/usr/bin/env node
// Function length check (run by `npm run lint`): no function in src/ may run over MAX_LINES lines, migrations and
// declarative tables aside. Uses the TypeScript compiler API to find every function (declarations, expressions,
// arrows, methods, accessors, constructors) and measures it from its first line to its last, comments included.
// Prints the ten largest and each one over the limit; exits 1 if any is over.
//
// Usage: node scripts/function-length.mjs [--max N] [--top N] [--json]
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : dflt;
};
const MAX_LINES = opt('--max', 150);
const TOP = opt('--top', 10);
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

/** Paths (relative to the repository, '/'-separated) exempt from the limit: the schema's migrations, which are
 * declarative steps of SQL, one function per schema version by design. */
const EXEMPT = [/^src\/core\/store\/migrations\//];

function walk(dir, out) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(p, out);
    else if (/\.(ts|tsx|mts|cts)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

function nameOf(node, sf) {
  if (node.name && ts.isIdentifier(node.name)) return node.name.text;
  if (node.name) return node.name.getText(sf);
  const parent = node.parent;
  if (parent && ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (parent && ts.isPropertyAssignment(parent)) return parent.name.getText(sf);
  if (parent && ts.isCallExpression(parent)) return `(callback of ${parent.expression.getText(sf).slice(0, 40)})`;
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  return '(anonymous)';
}

/** A `describe` block's callback in a test file groups test cases declaratively; its `it`s are measured one by one. */
function isTestGroup(node) {
  const parent = node.parent;
  if (!parent || !ts.isCallExpression(parent)) return false;
  let callee = parent.expression;
  while (ts.isCallExpression(callee)) callee = callee.expression; // describe.each(table)(...)
  while (ts.isPropertyAccessExpression(callee)) callee = callee.expression; // describe.skip, describe.each
  return ts.isIdentifier(callee) && callee.text === 'describe';
}

/** A function whose body is a single returned or assigned object/array literal of data is a declarative table. */
function isDeclarativeTable(node) {
  const body = node.body;
  if (!body) return false;
  const expr = ts.isBlock(body)
    ? body.statements.length === 1 && ts.isReturnStatement(body.statements[0])
      ? body.statements[0].expression
      : undefined
    : body;
  let e = expr;
  while (e && ts.isParenthesizedExpression(e)) e = e.expression;
  return !!e && (ts.isArrayLiteralExpression(e) || ts.isObjectLiteralExpression(e)) && !containsFunction(e);
}

function containsFunction(node) {
  let found = false;
  node.forEachChild(function visit(n) {
    if (found) return;
    if (ts.isFunctionLike(n)) found = true;
    else n.forEachChild(visit);
  });
  return found;
}

const results = [];
for (const file of walk(path.join(root, 'src'), [])) {
  const rel = path.relative(root, file).split(path.sep).join('/');
  if (EXEMPT.some((re) => re.test(rel))) continue;
  const text = fs.readFileSync(file, 'utf8');
  const kind = file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const visit = (node) => {
    if (
      (ts.isFunctionDeclaration(node) ||
        ts.isFunctionExpression(node) ||
        ts.isArrowFunction(node) ||
        ts.isMethodDeclaration(node) ||
        ts.isConstructorDeclaration(node) ||
        ts.isGetAccessorDeclaration(node) ||
        ts.isSetAccessorDeclaration(node)) &&
      node.body
    ) {
      const start = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
      const end = sf.getLineAndCharacterOfPosition(node.getEnd()).line + 1;
      results.push({
        file: rel,
        line: start,
        name: nameOf(node, sf),
        lines: end - start + 1,
        table: isDeclarativeTable(node) || isTestGroup(node),
      });
    }
    node.forEachChild(visit);
  };
  visit(sf);
}

results.sort((a, b) => b.lines - a.lines);
const counted = results.filter((r) => !r.table);
const over = counted.filter((r) => r.lines > MAX_LINES);
if (args.includes('--json')) {
  process.stdout.write(
    JSON.stringify({ max: MAX_LINES, functions: counted.length, over, top: counted.slice(0, TOP) }, null, 2) + '\n',
  );
} else {
  console.log(
    `function length: ${counted.length} functions in src/ (migrations, declarative tables and test groups aside); limit ${MAX_LINES} lines`,
  );
  console.log(`the ${Math.min(TOP, counted.length)} largest:`);
  for (const r of counted.slice(0, TOP))
    console.log(`  ${String(r.lines).padStart(4)}  ${r.file}:${r.line}  ${r.name}`);
  if (over.length) {
    console.log(`${over.length} over ${MAX_LINES} lines:`);
    for (const r of over) console.log(`  ${String(r.lines).padStart(4)}  ${r.file}:${r.line}  ${r.name}`);
  } else console.log(`none over ${MAX_LINES} lines`);
}
process.exit(over.length ? 1 : 0);
