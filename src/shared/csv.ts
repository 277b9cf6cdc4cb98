// CSV as spreadsheets read it (RFC 4180): quote a field when it holds a comma, quote or line break.

export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvRow(values: readonly unknown[]): string {
  return values.map(csvField).join(',') + '\r\n';
}
