// The access matrix of spec section 5: for one resource, every caller (anonymous, the owning
// client, another client, a manager, an admin) tries every action (select, insert, update,
// delete) through PostgREST's door, and each cell asserts both what happened and what the
// database holds afterwards. Each cell works on rows of its own, owned by a fresh client.
import { randomUUID } from 'node:crypto';
import type { Sql } from 'postgres';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Account, type Caller, type Cast, as, cast, connect, grantModes, outcome, signUp } from '../helpers/db.ts';

export type Action = 'select' | 'insert' | 'update' | 'delete';
export type Who = 'anon' | 'owner' | 'other client' | 'manager' | 'admin';
export const everyone: Who[] = ['anon', 'owner', 'other client', 'manager', 'admin'];
export const staff: Who[] = ['manager', 'admin'];
export const ownerAndStaff: Who[] = ['owner', 'manager', 'admin'];

/** The accounts of one cell: a fresh owning client, and the file's shared others. */
export interface World {
  owner: Account;
  other: Account;
  manager: Account;
  admin: Account;
  sql: Sql;
}

export type Row = Record<string, unknown>;

export interface ResourceSpec {
  table: string;
  /** Which rows of the table the matrix is about, when a table has several matrices. */
  rows?: string;
  /** The column that identifies a row (defaults to `id`). */
  key?: string;
  /** Creates, as the service, the row the cell acts on; returns its key. */
  seed(world: World): Promise<string>;
  /** The row `who` tries to insert; it must carry its key (or `identify` it). */
  newRow(world: World, who: Who): Promise<Row> | Row;
  /** The change an update tries. */
  change: Row;
  /** How to find an inserted row when it cannot carry its key (column, value). */
  identify?(row: Row): [string, unknown];
  /** Which callers each action is allowed to; every other caller is denied. */
  allowed: Record<Action, Who[]>;
  /** The account that owns a seeded row, when it is not the world's owner (profile). */
  ownerOf?(world: World, key: string): Account;
}

const actions: Action[] = ['select', 'insert', 'update', 'delete'];
// Denials come as an error (no grant, or a row rejected by a policy) or as rows not visible.
const DENIED = '42501';

function callerFor(world: World, who: Who, spec: ResourceSpec, key: string): Caller {
  switch (who) {
    case 'anon':
      return 'anon';
    case 'owner':
      return spec.ownerOf?.(world, key) ?? world.owner;
    case 'other client':
      return world.other;
    case 'manager':
      return world.manager;
    case 'admin':
      return world.admin;
  }
}

async function rowByColumn(sql: Sql, table: string, column: string, value: unknown): Promise<Row | undefined> {
  const [row] = await sql`select * from ${sql(table)} where ${sql(column)} = ${value as string}`;
  return row;
}

export function describeAccessMatrix(spec: ResourceSpec): void {
  const key = spec.key ?? 'id';

  describe.each(grantModes)(`${spec.table}${spec.rows ? ` (${spec.rows})` : ''} access rules (%s)`, (mode) => {
    const sql = connect(mode);
    let shared: Cast;
    beforeAll(async () => {
      shared = await cast(sql);
    });
    // Rows no account owns (currencies, providers, settings, contact messages) are removed after
    // the file, so the matrix runs again on a shared database (TEST_DATABASE_URL).
    const written: [string, unknown][] = [];
    afterAll(async () => {
      for (const [column, value] of written) {
        await sql`delete from ${sql(spec.table)} where ${sql(column)} = ${value as string}`;
      }
    });
    const world = async (): Promise<World> => ({
      owner: await signUp(sql, 'alice'),
      other: shared.eve,
      manager: shared.mona,
      admin: shared.adam,
      sql,
    });

    for (const action of actions) {
      for (const who of everyone) {
        const allowed = spec.allowed[action].includes(who);
        test(`${who} ${allowed ? 'may' : 'may not'} ${action} ${spec.table} rows`, async () => {
          const w = await world();
          const seeded = await spec.seed(w);
          written.push([key, seeded]);
          const caller = callerFor(w, who, spec, seeded);
          const before = await rowByColumn(sql, spec.table, key, seeded);
          expect(before, 'the seeded row exists').toBeDefined();

          if (action === 'select') {
            let rows: Row[] = [];
            const result = await outcome(async () => {
              rows = await as(sql, caller, (tx) => tx`select * from ${tx(spec.table)} where ${tx(key)} = ${seeded}`);
            });
            if (allowed) {
              expect(result).toBe('ok');
              expect(rows).toHaveLength(1);
            } else {
              expect(['ok', DENIED]).toContain(result);
              expect(rows).toHaveLength(0);
            }
          }

          if (action === 'insert') {
            const row = await spec.newRow(w, who);
            const [column, value] = spec.identify?.(row) ?? [key, row[key]];
            written.push([column, value]);
            const result = await outcome(() => as(sql, caller, (tx) => tx`insert into ${tx(spec.table)} ${tx(row)}`));
            const stored = await rowByColumn(sql, spec.table, column, value);
            if (allowed) {
              expect(result).toBe('ok');
              expect(stored).toBeDefined();
            } else {
              expect(result).toBe(DENIED);
              expect(stored).toBeUndefined();
            }
          }

          if (action === 'update') {
            let count = 0;
            const result = await outcome(async () => {
              const done = await as(sql, caller, (tx) => tx`update ${tx(spec.table)} set ${tx(spec.change)} where ${tx(key)} = ${seeded}`);
              count = done.count;
            });
            const after = await rowByColumn(sql, spec.table, key, seeded);
            const changed = Object.keys(spec.change).map((column) => after?.[column]);
            const original = Object.keys(spec.change).map((column) => before?.[column]);
            if (allowed) {
              expect(result).toBe('ok');
              expect(count).toBe(1);
              expect(changed).toEqual(Object.values(spec.change));
            } else {
              expect(['ok', DENIED]).toContain(result);
              expect(count).toBe(0);
              expect(changed).toEqual(original);
            }
          }

          if (action === 'delete') {
            let count = 0;
            const result = await outcome(async () => {
              const done = await as(sql, caller, (tx) => tx`delete from ${tx(spec.table)} where ${tx(key)} = ${seeded}`);
              count = done.count;
            });
            const after = await rowByColumn(sql, spec.table, key, seeded);
            if (allowed) {
              expect(result).toBe('ok');
              expect(count).toBe(1);
              expect(after).toBeUndefined();
            } else {
              expect(['ok', DENIED]).toContain(result);
              expect(count).toBe(0);
              expect(after).toBeDefined();
            }
          }
        });
      }
    }
  });
}

/** The account id a cell's caller writes in: its own, or the owner's for anonymous callers. */
export function ownIdOf(world: World, who: Who): string {
  return { anon: world.owner, owner: world.owner, 'other client': world.other, manager: world.manager, admin: world.admin }[who].id;
}

export const newId = (): string => randomUUID();

let codeCounter = Math.floor(Math.random() * 600);
/** A currency code that is not one of the 41 the service ships (X + two letters), new each call. */
export function unusedCurrencyCode(): string {
  const n = codeCounter++;
  return `X${String.fromCharCode(65 + (Math.floor(n / 26) % 26))}${String.fromCharCode(65 + (n % 26))}`;
}
