// Hands a file to the browser's download (browser mode: the Downloads folder; the desktop: its save dialog): the bet
// log's CSV, the report's tables and charts.

export function saveFile(blob: Blob, name: string): void {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

/** A CSV text as a file of that name. */
export function saveCsv(csv: string, name: string): void {
  saveFile(new Blob([csv], { type: 'text/csv;charset=utf-8' }), name);
}
