// Tools from outside npm that some suites need (Go, Python, Chromium, from Debian): found on the
// PATH, or the suite is skipped saying so, and why, in the run's output, never passing silently.
import { execFile } from 'node:child_process';
import { describe } from 'vitest';

/** Where `command` is on the PATH, or null. */
export function which(command: string): Promise<string | null> {
  return new Promise((resolve) =>
    execFile('sh', ['-c', `command -v ${command}`], (error, stdout) => resolve(error ? null : stdout.trim())));
}

/** A describe block that needs `tool` (or one of its names): skipped where it is missing, saying so. */
export async function describeWithTool(tool: string | string[], install: string, title: string, body: (path: string) => void) {
  const names = Array.isArray(tool) ? tool : [tool];
  let found: string | null = null;
  for (const name of names) found ??= await which(name);
  if (!found) console.warn(`SKIPPED ${title}: ${names.join(' or ')} is not installed (${install}).`);
  describe.skipIf(!found)(found ? title : `${title} (skipped: ${names.join(' or ')} is not installed)`, () => body(found ?? ''));
}
