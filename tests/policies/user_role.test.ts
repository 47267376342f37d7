import { describeAccessMatrix, newId, ownerAndStaff } from './matrix.ts';

// Roles are read by their holder and by staff; only the service writes them (spec 5).
describeAccessMatrix({
  table: 'user_role',
  async seed({ sql, owner }) {
    const [row] = await sql`select id from public.user_role where user_id = ${owner.id} and role = 'client'`;
    return row.id;
  },
  newRow: ({ owner }) => ({ id: newId(), user_id: owner.id, role: 'manager' }),
  change: { role: 'admin' },
  allowed: { select: ownerAndStaff, insert: [], update: [], delete: [] },
});
