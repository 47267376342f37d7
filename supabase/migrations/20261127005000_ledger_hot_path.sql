-- The ledger's hot path (issue 38): the created_by index held an entry for every ledger row the
-- engine writes, where created_by is always null; only staff movements have one, and only the
-- foreign key's `on delete set null` looks it up (`created_by = $1` implies not null, so the
-- partial index serves it).
drop index public.transaction_created_by_idx;
create index transaction_created_by_idx on public.transaction (created_by) where created_by is not null;
