import { describeAccessMatrix, newId, ownerAndStaff, staff } from './matrix.ts';

// Clients open tickets in their own name and read them; only staff update or delete. Every
// caller here tries to open a ticket in the owner's name, so another client is refused.
describeAccessMatrix({
  table: 'support_ticket',
  async seed({ sql, owner }) {
    const [row] = await sql`insert into public.support_ticket (client_id, subject) values (${owner.id}, 'Help') returning id`;
    return row.id;
  },
  newRow: ({ owner }) => ({ id: newId(), client_id: owner.id, subject: 'New ticket' }),
  change: { status: 'closed' },
  allowed: { select: ownerAndStaff, insert: ownerAndStaff, update: staff, delete: staff },
});
