// The functions' folders say what depends on what (docs/STYLE: "_shared/ holds what several
// functions share, and nothing there imports from one function"), read from the import statements
// of supabase/functions/**: _shared imports only _shared and packages both functions map; deliver
// and v3 import only themselves and _shared; inside v3 only app.ts and index.ts mount routes, and a
// route module never imports another (shared parsing lives in a v3 module named for it).
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const functions = fileURLToPath(new URL('../../supabase/functions/', import.meta.url));

/** Every module's path under supabase/functions (posix) and what it imports, as written. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts')) graph.set(relative(functions, path).split('\\').join('/'), importsOf(readFileSync(path, 'utf8')));
    }
  };
  walk(functions);
  return graph;
}

/** The specifiers of a module's static imports and re-exports, and of its dynamic imports. */
export function importsOf(source: string): string[] {
  return [...source.matchAll(/^\s*(?:import|export)\b[^'"]*?\bfrom\s*['"]([^'"]+)['"]|^\s*import\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/gm)]
    .map((m) => m[1] ?? m[2] ?? m[3]!);
}

const mapped = (fn: string) => Object.keys(JSON.parse(readFileSync(join(functions, fn, 'deno.json'), 'utf8')).imports);

/** Each import that breaks a rule, as `<module> -> <import>: <rule>`. */
export function layerViolations(graph: Map<string, string[]>, packages: { v3: string[]; deliver: string[] }): string[] {
  const violations: string[] = [];
  for (const [module, specifiers] of graph) {
    const [fn] = module.split('/');
    for (const specifier of specifiers) {
      const broken = (rule: string) => violations.push(`${module} -> ${specifier}: ${rule}`);
      if (!specifier.startsWith('.')) {
        if (specifier.startsWith('node:')) continue;
        const known = (list: string[]) => list.some((name) => specifier === name || (name.endsWith('/') && specifier.startsWith(name)));
        if (fn === '_shared' && !(known(packages.v3) && known(packages.deliver))) broken('_shared uses only packages both functions map');
        continue;
      }
      const target = posix.normalize(posix.join(posix.dirname(module), specifier));
      const [targetFn] = target.split('/');
      if (target.startsWith('..')) broken('stays inside supabase/functions');
      else if (fn === '_shared' && targetFn !== '_shared') broken('_shared imports nothing from a function');
      else if (fn !== '_shared' && targetFn !== '_shared' && targetFn !== fn) broken('a function imports only itself and _shared');
      else if (target.startsWith('v3/routes/') && module.startsWith('v3/routes/')) broken('route modules do not import each other');
      else if (target.startsWith('v3/routes/') && !['v3/app.ts', 'v3/index.ts'].includes(module)) broken('only app.ts and index.ts mount routes');
    }
  }
  return violations;
}

describe('the layers of supabase/functions', () => {
  const packages = { v3: mapped('v3'), deliver: mapped('deliver') };

  it('hold: no module imports from a layer above it, and route modules not from each other', () => {
    const graph = importGraph();
    expect(graph.size).toBeGreaterThan(30);
    expect(graph.get('v3/app.ts')).toContain('./routes/sessions.ts');
    expect(layerViolations(graph, packages)).toEqual([]);
  });

  it('are read from the imports: each kind of broken rule is reported (so the check above can fail)', () => {
    const broken = new Map([
      ['_shared/wallet-call.ts', ['../v3/api.types.ts', 'hono']],
      ['deliver/deliveries.ts', ['../v3/problem.ts']],
      ['v3/routes/sandbox.ts', ['./webhooks.ts']],
      ['v3/context.ts', ['./routes/sessions.ts']],
      ['v3/app.ts', ['./routes/sessions.ts', '../_shared/database.ts', 'node:crypto']],
    ]);
    expect(layerViolations(broken, packages)).toEqual([
      '_shared/wallet-call.ts -> ../v3/api.types.ts: _shared imports nothing from a function',
      '_shared/wallet-call.ts -> hono: _shared uses only packages both functions map',
      'deliver/deliveries.ts -> ../v3/problem.ts: a function imports only itself and _shared',
      'v3/routes/sandbox.ts -> ./webhooks.ts: route modules do not import each other',
      'v3/context.ts -> ./routes/sessions.ts: only app.ts and index.ts mount routes',
    ]);
    expect(importsOf("import { a } from './a.ts';\nimport type { B } from \"../b.ts\";\nexport { c } from './c.ts';\nawait import('./d.ts');"))
      .toEqual(['./a.ts', '../b.ts', './c.ts', './d.ts']);
  });
});
