// npm run db:migrate: brings DATABASE_URL (or the embedded default) up to the latest migration.
import { prepareDatabase } from './lib/database.ts';
import { openTarget } from './lib/target.ts';

const target = await openTarget();
try {
  const applied = await prepareDatabase(target.url, { seed: target.embedded });
  console.log(applied.length ? `applied: ${applied.join(', ')}` : 'database is up to date');
} finally {
  await target.stop();
}
