import { describeAccessMatrix, newId, ownerAndStaff, ownIdOf } from './matrix.ts';

// Messages on a ticket: its owner and staff read them and write them in their own name; nobody
// edits or deletes one. Every caller writes on the owner's ticket, in its own name.
describeAccessMatrix({
  table: 'support_ticket_message',
  async seed({ sql, owner }) {
    const [ticket] = await sql`insert into public.support_ticket (client_id, subject) values (${owner.id}, 'Help') returning id`;
    const [row] = await sql`
      insert into public.support_ticket_message (ticket_id, author_id, body) values (${ticket.id}, ${owner.id}, 'First')
      returning id`;
    return row.id;
  },
  async newRow(world, who) {
    const [ticket] = await world.sql`select id from public.support_ticket where client_id = ${world.owner.id}`;
    return { id: newId(), ticket_id: ticket.id, author_id: ownIdOf(world, who), body: 'Reply' };
  },
  change: { body: 'Edited' },
  allowed: { select: ownerAndStaff, insert: ownerAndStaff, update: [], delete: [] },
});
