// CSV as spreadsheets read it (RFC 4180), whatever the reader's locale. Text from the upstream (team, league, special
// and contestant names) must never run as a formula when a trader opens the file, and a spreadsheet whose list
// separator is `;` (German, French, Dutch...) or tab splits our lines at those characters, not at our commas: the
// cell `x;=cmd|...` is one cell to us and a `=cmd|...` cell to them. So, following OWASP's CSV-injection rule at
// every place a cell can start in any of those readings:
//  - a TEXT field starting with =, +, -, @, tab or carriage return gets a leading apostrophe (shown as text);
//  - inside a field, after every separator of any locale (`,` `;` tab) and every line break, the same characters,
//    a quote (which would open a quoted cell there) or the field's end (our closing quote follows) get an apostrophe;
//  - a field is quoted when it holds any of those separators, a quote or a line break.
// Numbers stay numbers: -1.5 is a number, not a formula. Every export's first column is an id or a word, never a
// negative number, so no line (in any reading) starts with a formula character either.

const FORMULA_START = /^[=+\-@\t\r]/;
/** A separator of any locale or a line break, followed by what would start a formula (or a quoted cell) after it. */
const FORMULA_AFTER_SEPARATOR = /([,;\t\r\n])(?=[=+\-@\t\r"]|$)/g;
const NEEDS_QUOTES = /[",;\t\r\n]/;

/** One cell. Numbers as numbers (non-finite ones left empty), everything else as neutralised text. */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  let text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  text = text.replace(FORMULA_AFTER_SEPARATOR, "$1'");
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvRow(values: readonly unknown[]): string {
  return values.map(csvField).join(',') + '\r\n';
}
