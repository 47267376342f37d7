import { createHash, randomBytes } from 'node:crypto';
import { describeAccessMatrix, newId, staff } from './matrix.ts';

const keyHash = () => createHash('sha256').update(randomBytes(32)).digest('hex');

// Game providers' keys are staff's alone: no client reads another party's credentials.
describeAccessMatrix({
  table: 'provider_key',
  async seed({ sql }) {
    const [row] = await sql`
      insert into public.provider_key (provider_id, key_prefix, key_hash)
      select id, 'cgs_prov_abc', ${keyHash()} from public.game_provider where slug = 'spribe'
      returning id`;
    return row.id;
  },
  async newRow({ sql }) {
    const [provider] = await sql`select id from public.game_provider where slug = 'spribe'`;
    return { id: newId(), provider_id: provider.id, key_prefix: 'cgs_prov_new', key_hash: keyHash() };
  },
  change: { label: 'Production' },
  allowed: { select: staff, insert: staff, update: staff, delete: staff },
});
