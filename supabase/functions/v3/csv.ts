// CSV as spreadsheets open it (RFC 4180): CRLF line ends, a field quoted when it holds a comma, a
// quote or a line break, quotes inside doubled. A text cell a spreadsheet would read as a formula
// (it starts with =, +, -, @, a tab or a carriage return: OWASP's CSV injection list) is written
// with a leading apostrophe, so it shows as the text it is and never runs. Numbers the service
// writes itself (amounts) are numbers, and go as they are.

const FORMULA_START = /^[=+\-@\t\r]/;

/** One field: `text` guarded against formula injection, then quoted when it must be. */
export function csvField(value: string | null | undefined, kind: 'text' | 'number' = 'text'): string {
  if (value === null || value === undefined) return '';
  const guarded = kind === 'text' && FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(guarded) ? `"${guarded.replaceAll('"', '""')}"` : guarded;
}

/** One record, with its CRLF. */
export function csvRecord(fields: string[]): string {
  return `${fields.join(',')}\r\n`;
}

/** The byte-order mark a spreadsheet needs to read the file as UTF-8 (player ids are any text). */
export const UTF8_BOM = '\uFEFF';
