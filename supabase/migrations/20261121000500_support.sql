-- Support: tickets a client opens and the conversation on them (spec 2.8, 2.9, 5).

-- ============================================================================================
-- Tables
-- ============================================================================================
create table public.support_ticket (
  id uuid primary key default gen_random_uuid(),
  client_id uuid not null references auth.users (id) on delete cascade,
  subject text not null,
  status text not null default 'open',
  priority text not null default 'normal',
  assigned_to uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint support_ticket_subject_length check (char_length(btrim(subject)) between 1 and 200),
  constraint support_ticket_status_check check (status in ('open', 'pending', 'resolved', 'closed')),
  constraint support_ticket_priority_check check (priority in ('low', 'normal', 'high', 'urgent'))
);
comment on table public.support_ticket is 'A client''s support request; clients open them, staff handle them.';
create index support_ticket_client_id_idx on public.support_ticket (client_id);
create index support_ticket_assigned_to_idx on public.support_ticket (assigned_to);

create table public.support_ticket_message (
  id uuid primary key default gen_random_uuid(),
  ticket_id uuid not null references public.support_ticket (id) on delete cascade,
  -- No cascade: a staff account with messages is closed (profile.status), not deleted, so that
  -- clients keep their conversations. A client's own messages go with its tickets; the check
  -- waits for the end of the transaction so that those cascades have run by then.
  author_id uuid not null references auth.users (id) deferrable initially deferred,
  body text not null,
  created_at timestamptz not null default now(),
  constraint support_ticket_message_body_length check (char_length(btrim(body)) between 1 and 10000)
);
comment on table public.support_ticket_message is 'Messages on a ticket; never edited or deleted by callers.';
create index support_ticket_message_ticket_id_created_at_idx
  on public.support_ticket_message (ticket_id, created_at);
create index support_ticket_message_author_id_idx on public.support_ticket_message (author_id);

-- ============================================================================================
-- Row level security
-- ============================================================================================
alter table public.support_ticket enable row level security;
alter table public.support_ticket_message enable row level security;

-- ============================================================================================
-- Grants
-- ============================================================================================
grant select, insert on public.support_ticket to authenticated;
grant select, insert, update, delete on public.support_ticket to staff;
grant all on public.support_ticket to service_role;
-- Messages are append-only for callers: no update or delete grant at all.
grant select, insert on public.support_ticket_message to authenticated, staff;
grant all on public.support_ticket_message to service_role;

-- ============================================================================================
-- Triggers
-- ============================================================================================
create trigger support_ticket_set_updated_at
  before update on public.support_ticket
  for each row execute function private.set_updated_at();

-- ============================================================================================
-- Policies
-- ============================================================================================
create policy "clients read their own tickets"
  on public.support_ticket for select to authenticated
  using (client_id = (select private.uid()));

-- A client opens tickets in its own name only: open, at the initial priority (spec 3: `normal`),
-- unassigned and dated now, so no client jumps the staff queue (sorted by priority or updated_at).
create policy "clients open their own tickets"
  on public.support_ticket for insert to authenticated
  with check (
    client_id = (select auth.uid()) and status = 'open' and priority = 'normal' and assigned_to is null
    and created_at = now() and updated_at = now()
  );

create policy "staff read all tickets"
  on public.support_ticket for select to staff
  using (true);

create policy "staff create tickets"
  on public.support_ticket for insert to staff
  with check ((select private.is_staff()));

create policy "staff update tickets"
  on public.support_ticket for update to staff
  using ((select private.is_staff()))
  with check ((select private.is_staff()));

create policy "staff delete tickets"
  on public.support_ticket for delete to staff
  using ((select private.is_staff()));

-- The owner's ticket ids as one array, computed once: `ticket_id = any(...)` is an index condition,
-- where `ticket_id in (select ...)` in a policy is a filter on every message of every client.
create policy "ticket owners read their messages"
  on public.support_ticket_message for select to authenticated
  using (ticket_id = any (array(select t.id from public.support_ticket t where t.client_id = (select private.uid()))));

create policy "ticket owners write on their tickets in their own name"
  on public.support_ticket_message for insert to authenticated
  with check (
    author_id = (select auth.uid())
    and created_at = now()
    and ticket_id in (select t.id from public.support_ticket t where t.client_id = (select auth.uid()))
  );

create policy "staff read all messages"
  on public.support_ticket_message for select to staff
  using (true);

create policy "staff write messages in their own name"
  on public.support_ticket_message for insert to staff
  with check (author_id = (select private.uid()) and created_at = now() and (select private.is_staff()));
