import { signUp } from '../helpers/db.ts';
import { describeAccessMatrix, ownerAndStaff, staff } from './matrix.ts';

// A profile is its account's: the owner reads and edits it, staff do anything, and nobody else
// creates one (the service does, on sign-up).
describeAccessMatrix({
  table: 'profile',
  seed: async ({ owner }) => owner.id,
  async newRow({ sql }) {
    const account = await signUp(sql, 'no-profile-yet');
    await sql`delete from public.profile where id = ${account.id}`;
    return { id: account.id, display_name: 'Fresh' };
  },
  change: { display_name: 'Renamed' },
  allowed: { select: ownerAndStaff, insert: staff, update: ownerAndStaff, delete: staff },
});
