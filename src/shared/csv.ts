// CSV as spreadsheets read it (RFC 4180): quote a field when it holds a comma, quote or line break. Text from the
// upstream (team, league, special and contestant names) must never run as a formula when a trader opens the file:
// following OWASP's CSV-injection rule, a TEXT cell starting with =, +, -, @, tab or carriage return gets a leading
// apostrophe, which spreadsheets show as text. Numbers stay numbers: -1.5 is a number, not a formula.

const FORMULA_START = /^[=+\-@\t\r]/;

/** One cell. Numbers as numbers (non-finite ones left empty), everything else as neutralised text. */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  let text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvRow(values: readonly unknown[]): string {
  return values.map(csvField).join(',') + '\r\n';
}
