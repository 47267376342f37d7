// docs/mutation-testing.md: hand-written, with one generated section per tool between markers.
// A tool replaces its own section and leaves the rest of the file as it was.
import { readFile, writeFile } from 'node:fs/promises';
import { paths } from '../lib/database.ts';

export const mutationDoc = `${paths.root}docs/mutation-testing.md`;

const markers = (tool: string) => [`<!-- ${tool}: generated, do not edit by hand -->`, `<!-- ${tool}: end -->`] as const;

/** `doc` with the section of `tool` replaced by `markdown`; throws when the markers are missing. */
export function replaceSection(doc: string, tool: string, markdown: string): string {
  const [begin, end] = markers(tool);
  const from = doc.indexOf(begin);
  const to = doc.indexOf(end);
  if (from < 0 || to < from) throw new Error(`${mutationDoc} has no section for ${tool} (${begin} ... ${end})`);
  return `${doc.slice(0, from + begin.length)}\n\n${markdown.trim()}\n\n${doc.slice(to)}`;
}

export async function writeSection(tool: string, markdown: string): Promise<void> {
  await writeFile(mutationDoc, replaceSection(await readFile(mutationDoc, 'utf8'), tool, markdown));
}

/** `|`-separated cells: a pipe or a line break inside a cell would break the table. */
export function cell(text: string): string {
  return text.replace(/\s+/g, ' ').replace(/\|/g, '\\|').replace(/`/g, "'");
}

export function percent(detected: number, total: number): string {
  return total ? `${((100 * detected) / total).toFixed(1)} %` : 'n/a';
}
