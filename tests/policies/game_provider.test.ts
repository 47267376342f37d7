import { describeAccessMatrix, everyone, newId, staff } from './matrix.ts';

// The provider list is public; staff manage it (spec 1, 5).
describeAccessMatrix({
  table: 'game_provider',
  async seed({ sql }) {
    const id = newId();
    await sql`insert into public.game_provider (id, name, slug) values (${id}, 'Test Studio', ${`test-${id}`})`;
    return id;
  },
  newRow: () => {
    const id = newId();
    return { id, name: 'New Studio', slug: `new-${id}` };
  },
  change: { status: 'maintenance' },
  allowed: { select: everyone, insert: staff, update: staff, delete: staff },
});
