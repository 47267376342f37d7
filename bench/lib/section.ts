// What run.ts expects of each part of the benchmark: it runs on the shared throwaway cluster and
// hands back tables to print and write. Add a part by adding one Section to run.ts.
import type { Cluster } from './cluster.ts';
import type { Table } from './table.ts';

export interface SectionReport {
  title: string;
  /** Lines printed and written before the table (what was measured, how). */
  intro: string[];
  table: Table;
  /** Lines after the table (findings, targets missed). */
  notes: string[];
  /** False when a target of this section was missed; the run then exits non-zero. */
  targetsMet: boolean;
}

export interface Section {
  name: string;
  run(cluster: Cluster, log: (line: string) => void): Promise<SectionReport>;
}
