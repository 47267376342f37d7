-- Read policies test the staff arm first (issue 5). Postgres evaluates an OR's arms in the order
-- written. With the client arm first, a staff read compared every row's owner to the caller before
-- reaching the staff check: a staff count of a million transactions took 1.45x the same count with
-- RLS bypassed (npm run bench; target 1.2x). With the staff check first, each row reads one value
-- that an InitPlan computed once per query, and the comparison never runs for staff: 1.19x to 1.21x
-- in six runs. Measured as the owner on one core, that per-row step costs what any per-row step
-- costs here (a one-time filter's Result node costs the same 14 ms per million rows), and no cheaper
-- shape was found for a policy that must name the owner column for clients. This reverses the order
-- the earlier migrations chose on purpose (20261121000500_support.sql says why: clients never
-- reached is_staff()); the price of reversing it is below.
--
-- The price: every signed-in read now runs is_staff() once (an InitPlan; about 12 µs), where a
-- client's read never reached it before. A client's count of its own transactions went from 1.05x
-- to 1.08x to 1.10x of the same request with RLS bypassed.
--
-- The rules are unchanged: the same two arms, in the other order.

alter policy "accounts read their own roles; staff read all" on public.user_role
  using ((select private.is_staff()) or user_id = (select private.uid()));

alter policy "accounts read their own profile; staff read all" on public.profile
  using ((select private.is_staff()) or id = (select private.uid()));

alter policy "clients read their own wallets; staff read all" on public.wallet
  using ((select private.is_staff()) or client_id = (select private.uid()));

alter policy "clients read their own transactions; staff read all" on public.transaction
  using ((select private.is_staff()) or client_id = (select private.uid()));

alter policy "clients read their own api keys; staff read all" on public.api_key
  using ((select private.is_staff()) or client_id = (select private.uid()));

alter policy "clients read their own tickets; staff read all" on public.support_ticket
  using ((select private.is_staff()) or client_id = (select private.uid()));

alter policy "ticket owners and staff read messages" on public.support_ticket_message
  using (
    (select private.is_staff())
    or ticket_id in (select t.id from public.support_ticket t where t.client_id = (select private.uid()))
  );

alter policy "clients read their own game sessions; staff read all" on public.game_session
  using ((select private.is_staff()) or client_id = (select private.uid()));
