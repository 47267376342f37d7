// npm run gen:types: migrates a throwaway database (or DATABASE_URL) and writes
// src/database.types.ts from it with the real Supabase CLI. Commit the result.
import { writeFile } from 'node:fs/promises';
import { withMigratedDatabase } from './lib/target.ts';
import { generateTypes, typesFile } from './lib/types.ts';

await writeFile(typesFile, await withMigratedDatabase('types', generateTypes));
console.log(`wrote ${typesFile}`);
