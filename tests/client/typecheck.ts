// Compiles type-level test files (*.test-d.ts) with the project's tsconfig.json and returns every
// diagnostic. An @ts-expect-error line that stops being an error is itself a diagnostic (TS2578),
// so "no diagnostics" proves both the expectTypeOf assertions and the expected errors.
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export interface Diagnostic {
  file: string;
  line: number;
  code: number;
  message: string;
}

/** `virtualFiles` (absolute path -> source) are compiled as if they existed. */
export function typecheck(files: string[], virtualFiles: Record<string, string> = {}): Diagnostic[] {
  const config = ts.getParsedCommandLineOfConfigFile(resolve(root, 'tsconfig.json'), {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    },
  })!;
  const host = ts.createCompilerHost(config.options);
  const { fileExists, readFile } = host;
  host.fileExists = (name) => name in virtualFiles || fileExists.call(host, name);
  host.readFile = (name) => virtualFiles[name] ?? readFile.call(host, name);
  const program = ts.createProgram({
    rootNames: [...files, ...Object.keys(virtualFiles)],
    options: config.options,
    host,
  });
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => ({
    file: diagnostic.file ? diagnostic.file.fileName.replace(`${root}/`, '') : '',
    line: diagnostic.file ? diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line + 1 : 0,
    code: diagnostic.code,
    message: ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'),
  }));
}

export const fromRoot = (path: string) => resolve(root, path);
