// The test files that run code under test in another process: each imports, directly or through
// helpers, scripts/lib/deno-function.ts (real Deno: the served API, the deliver function, posts under
// Deno, and the browser and SDK suites that stand on them). Found from the imports, so a new one is
// left out of Stryker's run without anyone keeping a list.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const STARTERS = ['scripts/lib/deno-function.ts'];

function tsFiles(root: string, folder: string): string[] {
  return readdirSync(join(root, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : tsFiles(root, path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/** The relative imports of `file` (a path from `root`), as paths from `root`. */
function importsOf(root: string, file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  return [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+\.ts)'/g)]
    .map(([, specifier]) => relative(root, resolve(root, dirname(file), specifier)));
}

/** Test files (`tests/**\/*.test.ts`, from `root`) whose import graph reaches real Deno. */
export function outOfProcessTests(root: string): string[] {
  const files = tsFiles(root, 'tests');
  const graph = new Map(files.map((file) => [file, importsOf(root, file)]));
  const reaching = new Set(STARTERS);
  for (let grew = true; grew;) {
    grew = false;
    for (const [file, imports] of graph) {
      if (!reaching.has(file) && imports.some((path) => reaching.has(path))) {
        reaching.add(file);
        grew = true;
      }
    }
  }
  return files.filter((file) => file.endsWith('.test.ts') && reaching.has(file)).sort();
}
