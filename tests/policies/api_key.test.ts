import { createHash, randomBytes } from 'node:crypto';
import type { Sql } from 'postgres';
import { describeAccessMatrix, newId, ownerAndStaff, staff } from './matrix.ts';

const keyHash = () => createHash('sha256').update(randomBytes(32)).digest('hex');

async function insertKey(sql: Sql, clientId: string): Promise<string> {
  const [row] = await sql`
    insert into public.api_key (client_id, key_prefix, key_hash) values (${clientId}, 'cgs_live_abc', ${keyHash()})
    returning id`;
  return row.id;
}

// Clients read their own keys' metadata (never a key: only its hash exists); staff manage keys.
describeAccessMatrix({
  table: 'api_key',
  seed: ({ sql, owner }) => insertKey(sql, owner.id),
  newRow: ({ owner }) => ({ id: newId(), client_id: owner.id, key_prefix: 'cgs_live_new', key_hash: keyHash() }),
  change: { label: 'Production' },
  allowed: { select: ownerAndStaff, insert: staff, update: staff, delete: staff },
});
