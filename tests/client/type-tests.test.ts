// Runs the type-level tests of the back-office client and the SDK (*.test-d.ts) in `npm test`:
// vitest's own run does not type-check, so without this they would prove nothing.
import { expect, test } from 'vitest';
import { fromRoot, typecheck } from './typecheck.ts';

const typeTests = ['tests/client/back-office.test-d.ts', 'tests/sdks/typescript/sdk.test-d.ts'].map(fromRoot);

// A file that must fail, compiled alongside: proves the check reports what it should.
const probe = fromRoot('tests/client/__probe__.test-d.ts');
const probeSource = `import type { BackOfficeClient } from '../../src/back-office/index.ts';
declare const db: BackOfficeClient;
db.from('no_such_table');
// @ts-expect-error
db.from('wallet');
`;

test('the typed-client and SDK type tests compile, and every @ts-expect-error line is still an error', () => {
  const diagnostics = typecheck(typeTests, { [probe]: probeSource });
  const [probed, others] = [
    diagnostics.filter((d) => d.file.endsWith('__probe__.test-d.ts')),
    diagnostics.filter((d) => !d.file.endsWith('__probe__.test-d.ts')),
  ];
  expect(others).toEqual([]);
  // The probe's wrong table is an error on line 3; its needless @ts-expect-error is TS2578 on line 4.
  expect(probed.map(({ line, code }) => ({ line, code }))).toEqual([
    { line: 3, code: expect.any(Number) },
    { line: 4, code: 2578 },
  ]);
}, 60_000);
