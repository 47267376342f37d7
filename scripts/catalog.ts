// npm run catalog -- import <file.json>   creates or updates the catalogue's games from a JSON array
// (each { game_id: "<provider slug>:<code>", name, category, ... }, as public.import_games takes them)
// and prints how many were created, updated and unchanged. All or nothing; running it again with the
// same file changes nothing. Works on DATABASE_URL or the embedded default, as the database owner.
import { readFile } from 'node:fs/promises';
import postgres from 'postgres';
import { openTarget } from './lib/target.ts';

const USAGE = 'usage: npm run catalog -- import <file.json>';
const [command, file] = process.argv.slice(2);
if (command !== 'import' || !file) {
  console.error(USAGE);
  process.exit(1);
}

let games: unknown;
try {
  games = JSON.parse(await readFile(file, 'utf8'));
} catch (error) {
  console.error(`error: cannot read ${file} as JSON: ${(error as Error).message}`);
  process.exit(1);
}

const target = await openTarget();
const sql = postgres(target.url, { max: 1, onnotice: () => {} });
let exitCode = 0;
try {
  const [result] = await sql`select * from public.import_games(${sql.json(games as never)})`;
  console.log(`imported ${file}: ${result.created} created, ${result.updated} updated, ${result.unchanged} unchanged`);
} catch (error) {
  // The database's own words are fine here: the operator runs this against their own database.
  console.error(`error: ${(error as Error).message}`);
  exitCode = 1;
} finally {
  await sql.end();
  await target.stop();
}
process.exit(exitCode);
