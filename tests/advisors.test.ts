// Supabase's advisors (security and performance lints) find nothing at ERROR or WARN level on
// the migrated schema.
import { expect, inject, test } from 'vitest';
import { blocking, runAdvisors } from '../scripts/lib/advisors.ts';

test('Supabase advisors report no ERROR or WARN finding', async () => {
  const findings = await runAdvisors(inject('databaseUrl'));
  expect(blocking(findings)).toEqual([]);
}, 120_000);
