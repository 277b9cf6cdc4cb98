// An RFC 4180 reader, as a spreadsheet's import does it: rows of raw cell texts (CRLF line ends, fields quoted when
// they hold a comma, quote or line break). For tests reading the CSV files the app writes (vitest and Playwright).
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      rows.push([...row, cell]);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  if (cell !== '' || row.length) rows.push([...row, cell]);
  return rows;
}

/**
 * The same text as a spreadsheet of another locale reads it: cells split at `separator` (`;` in German, French,
 * Dutch...; tab), a quote honoured only where a cell starts (and `""` inside a quoted cell), any unquoted line break
 * (CRLF, LF or CR) ending a row, and what follows a closing quote appended to the cell, as a lenient importer does.
 */
export function readCsvAs(text: string, separator: ',' | ';' | '\t'): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  let atCellStart = true;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
      continue;
    }
    if (c === '"' && atCellStart) {
      quoted = true;
      atCellStart = false;
    } else if (c === separator) {
      row.push(cell);
      cell = '';
      atCellStart = true;
    } else if (c === '\r' || c === '\n') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      rows.push([...row, cell]);
      row = [];
      cell = '';
      atCellStart = true;
    } else {
      cell += c;
      atCellStart = false;
    }
  }
  if (cell !== '' || row.length) rows.push([...row, cell]);
  return rows;
}
