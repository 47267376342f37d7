-- A client opens a ticket at the initial priority (spec 3: `normal`) and dated now. The insert
-- policy pinned status, assignment and created_at but not priority or updated_at: a client could
-- open its tickets as `urgent`, or dated 2999 to sit on top of every list sorted by updated_at,
-- ahead of everyone else's in the staff queue.

-- ============================================================================================
-- Policies
-- ============================================================================================
drop policy "clients open their own tickets; staff create any" on public.support_ticket;

create policy "clients open their own tickets; staff create any"
  on public.support_ticket for insert to authenticated
  with check (
    (select private.is_staff())
    or (client_id = (select auth.uid()) and status = 'open' and priority = 'normal' and assigned_to is null
        and created_at = now() and updated_at = now())
  );
