// npm run bench: runs every section on a throwaway Postgres, prints their tables and writes them,
// with the machine they ran on, to bench/results.md. Exits non-zero when a target is missed.
import { writeFile } from 'node:fs/promises';
import { engineAgainstLeastSql } from './engine.ts';
import { freeRoundsBench } from './free-rounds.ts';
import { startCluster } from './lib/cluster.ts';
import { describeMachine } from './lib/machine.ts';
import type { Section, SectionReport } from './lib/section.ts';
import { toMarkdown, toText } from './lib/table.ts';
import { operatorReads } from './reads.ts';
import { reportsAtSize } from './reports.ts';
import { gameRounds } from './rounds.ts';
import { rlsOverhead } from './rls.ts';
import { sessionsEndpoint } from './sessions.ts';
import { sportsbookPairs } from './sportsbook.ts';
import { webhookDeliveries } from './webhooks.ts';

// `npm run bench -- sessions` runs only the sections named; bench/results.md is written by full runs only.
const only = process.argv.slice(2);
const sections: Section[] = [rlsOverhead, sessionsEndpoint, operatorReads, gameRounds, engineAgainstLeastSql, sportsbookPairs, freeRoundsBench, webhookDeliveries, reportsAtSize].filter((s) => !only.length || only.includes(s.name));

const started = Date.now();
const cluster = await startCluster();
const reports: SectionReport[] = [];
let machine: string[];
try {
  machine = await describeMachine(cluster.url);
  for (const section of sections) reports.push(await section.run(cluster, (line) => console.log(line)));
} finally {
  await cluster.stop();
}
const minutes = `${((Date.now() - started) / 60_000).toFixed(1)} min`;

for (const r of reports) console.log(['', `## ${r.title}`, ...r.intro, '', toText(r.table), '', ...r.notes].join('\n'));
console.log(['', ...machine, `Total bench time: ${minutes}`].join('\n'));

const markdown = [
  '# Benchmark results',
  '',
  'Written by `npm run bench`; do not edit by hand.',
  '',
  ...machine.map((line) => `- ${line}`),
  `- Total bench time: ${minutes}`,
  ...reports.flatMap((r) => ['', `## ${r.title}`, '', ...r.intro, '', toMarkdown(r.table), '', ...r.notes]),
  '',
].join('\n');
if (only.length) console.log(`Sections ${only.join(', ')} only: bench/results.md left as it was`);
else {
  await writeFile(new URL('./results.md', import.meta.url), markdown);
  console.log('Wrote bench/results.md');
}

const missed = reports.filter((r) => !r.targetsMet).map((r) => r.title);
if (missed.length) {
  console.log(`Targets missed: ${missed.join(', ')}`);
  process.exitCode = 1;
}
