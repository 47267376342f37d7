// npm start: the service on its embedded default (or DATABASE_URL), migrated, seeded when new.
import { prepareDatabase } from './lib/database.ts';
import { openTarget } from './lib/target.ts';

const target = await openTarget();
const applied = await prepareDatabase(target.url, { seed: target.embedded });
console.log(applied.length ? `migrations applied: ${applied.length}` : 'database is up to date');
console.log(`database: ${target.url}${target.embedded ? ' (embedded, data in .data/postgres)' : ''}`);

let stopping = false;
async function shutdown() {
  if (stopping) return;
  stopping = true;
  await target.stop();
  process.exit(0);
}
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
console.log('ready; Ctrl-C stops');
