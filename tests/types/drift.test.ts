// The committed src/database.types.ts is what the real Supabase CLI generates from the migrated
// schema: a migration without `npm run gen:types` fails here.
import { readFile } from 'node:fs/promises';
import { expect, inject, test } from 'vitest';
import { generateTypes, typesFile } from '../../scripts/lib/types.ts';

test('the committed database types match the schema (run `npm run gen:types` after a migration)', async () => {
  const generated = await generateTypes(inject('databaseUrl'));
  expect(await readFile(typesFile, 'utf8')).toBe(generated);
}, 60_000);
