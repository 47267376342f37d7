// npm run migrations:freeze: adds each migration not yet frozen to supabase/migrations.sha256 (the
// format of `sha256sum`, so `cd supabase/migrations && sha256sum -c ../migrations.sha256` checks it
// too). A frozen migration is never edited again: a later change is a new file. Run it when a
// release is cut; tests/data/migrations.test.ts holds every frozen file to its checksum.
import { readFile, writeFile } from 'node:fs/promises';
import { frozenMigrationsFile, migrationChecksums, readFrozenMigrations } from './lib/database.ts';

const frozen = await readFrozenMigrations();
const added = [...(await migrationChecksums())].filter(([name]) => !frozen.has(name));
const text = await readFile(frozenMigrationsFile, 'utf8').catch(() => '');
await writeFile(frozenMigrationsFile, text + added.map(([name, sha256]) => `${sha256}  ${name}.sql\n`).join(''));
console.log(added.length ? `frozen: ${added.map(([name]) => name).join(', ')}` : 'every migration was frozen already');
