import { randomUUID } from 'node:crypto';
import { describeAccessMatrix, everyone, staff } from './matrix.ts';

// Anyone may send the contact form; only staff read or update submissions; nobody deletes.
// Inserted rows carry no id (visitors may not choose one), so they are found by their message.
describeAccessMatrix({
  table: 'contact_submission',
  async seed({ sql }) {
    const [row] = await sql`
      insert into public.contact_submission (name, email, message) values ('Vera', 'vera@example.test', 'Hello')
      returning id`;
    return row.id;
  },
  newRow: () => ({ name: 'Visitor', email: 'visitor@example.test', message: `Interested ${randomUUID()}` }),
  identify: (row) => ['message', row.message],
  change: { status: 'handled' },
  allowed: { select: staff, insert: everyone, update: staff, delete: [] },
});
