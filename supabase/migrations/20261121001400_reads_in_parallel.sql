-- Signed-in reads may use both cores again (issue 5). Postgres decides whether a query may run in
-- parallel before it inlines functions, from each function's label, and it checks the policies'
-- expressions too. Supabase's auth.uid() carries no label, so it counts as parallel unsafe: every
-- query a signed-in caller made on a table whose read policy calls it ran in one process, even
-- with the call inside (select ...), and so did any query joining such a table. A staff count of a
-- million transactions took 2.0x to 3.4x the same count with RLS bypassed (npm run bench).
--
-- Read policies now take the caller's id from private.uid(), labelled parallel safe. Write
-- policies keep auth.uid(): Postgres never runs a write in parallel.

-- ============================================================================================
-- Indexes
-- ============================================================================================
-- The transaction read policy's client_id on its own: deduplicated to about 7 MB per million rows
-- (the (client_id, created_at) index is 39 MB), so a staff count under the policy is an index-only
-- scan as small as the one Postgres picks with RLS bypassed, not a scan of the 115 MB table.
-- Built inside the migration's transaction, so writes to transaction wait while it builds (about
-- a second per million rows here). On a far larger table, build it first outside a transaction with
-- `create index concurrently transaction_client_id_idx on public.transaction (client_id)`; then
-- this line finds it and does nothing.
create index if not exists transaction_client_id_idx on public.transaction (client_id);

-- ============================================================================================
-- Helper functions
-- ============================================================================================
create function private.uid() returns uuid
-- plpgsql, not sql: a SQL function with search_path set is never inlined and is planned anew on
-- every call, while plpgsql keeps its plan (see is_staff()). About 2 µs more than auth.uid().
language plpgsql stable
-- parallel safe: auth.uid() reads request.jwt.claims, a setting Postgres copies to its parallel
-- workers; only its missing label made it unsafe. Policies call this inside (select ...), so it is
-- an InitPlan that runs once per query, in the leader.
parallel safe
set search_path = ''
as $$
begin
  return auth.uid();
end;
$$;
comment on function private.uid() is
  'auth.uid(), labelled parallel safe: the caller''s id in read policies.';
revoke execute on function private.uid() from public, anon;
grant execute on function private.uid() to authenticated;

-- ============================================================================================
-- Policies (the same rules; only the call that names the caller changes)
-- ============================================================================================
alter policy "accounts read their own roles; staff read all" on public.user_role
  using (user_id = (select private.uid()) or (select private.is_staff()));

alter policy "accounts read their own profile; staff read all" on public.profile
  using (id = (select private.uid()) or (select private.is_staff()));

alter policy "clients read their own wallets; staff read all" on public.wallet
  using (client_id = (select private.uid()) or (select private.is_staff()));

alter policy "clients read their own transactions; staff read all" on public.transaction
  using (client_id = (select private.uid()) or (select private.is_staff()));

alter policy "clients read their own api keys; staff read all" on public.api_key
  using (client_id = (select private.uid()) or (select private.is_staff()));

alter policy "clients read their own tickets; staff read all" on public.support_ticket
  using (client_id = (select private.uid()) or (select private.is_staff()));

alter policy "ticket owners and staff read messages" on public.support_ticket_message
  using (
    ticket_id in (select t.id from public.support_ticket t where t.client_id = (select private.uid()))
    or (select private.is_staff())
  );

alter policy "clients read their own game sessions; staff read all" on public.game_session
  using (client_id = (select private.uid()) or (select private.is_staff()));
