-- Reports (issue 36): closed days rolled up by the delivery runner, so a report never pays for it.
--
-- Until now a live client's closed days were rolled up when a report first needed them: an
-- operator's first report of a year of play rolled up the whole year first. Now the scheduled
-- runner (supabase/functions/deliver) also calls private.roll_up_due_ggr on each of its rounds: it
-- takes one client whose closed days are not all rolled up (none yet, or a mark before the last
-- closed day) and no other runner holds, and rolls up at most max_days of its days, the oldest
-- first. A client behind by a year is caught up over a few rounds, each a short transaction (well
-- inside the runner's statement timeout); once a day has closed, every client is rolled up past it
-- within minutes. A report still rolls up what the runner has not reached (the same function, the
-- same lock): the rules of a closed day are unchanged.
--
-- Replaces private.roll_up_ggr(uuid) (of 20261127004002_ggr_day_cells.sql): the same roll-up, up to
-- max_days days at a time when given. New: private.roll_up_due_ggr.

drop function private.roll_up_ggr(uuid);

create function private.roll_up_ggr(client_id uuid, max_days int default null) returns date
language plpgsql
set search_path = ''
as $$
declare
  closed date := ((now() - interval '1 hour') at time zone 'UTC')::date - 1;
  through date;
  waiting timestamptz;
  first timestamptz;
begin
  select g.through into through from private.ggr_rolled_up g where g.client_id = roll_up_ggr.client_id;
  if through >= closed then
    return through;
  end if;
  -- One roll-up of a client at a time; the second finds the work done.
  perform pg_advisory_xact_lock(hashtextextended(roll_up_ggr.client_id::text || ' ggr roll-up', 0));
  select g.through into through from private.ggr_rolled_up g where g.client_id = roll_up_ggr.client_id;
  if through >= closed then
    return through;
  end if;
  select min(c.created_at) into waiting from public.wallet_call c
  where c.status = 'pending' and c.action = 'debit' and c.client_id = roll_up_ggr.client_id and c.livemode;
  if waiting is not null then
    closed := least(closed, (waiting at time zone 'UTC')::date - 1);
  end if;
  if through is null then
    select min(t.created_at) into first from public.round_transaction t where t.client_id = roll_up_ggr.client_id;
    if first is null then
      return null;
    end if;
    through := (first at time zone 'UTC')::date - 1;
  end if;
  -- At most max_days days this time: the rest the next time.
  closed := least(closed, through + roll_up_ggr.max_days);
  if through < closed then
    insert into private.ggr_day
    select roll_up_ggr.client_id, c.*
    from private.ggr_cells(roll_up_ggr.client_id, true, (through + 1)::timestamp at time zone 'UTC',
                           (closed + 1)::timestamp at time zone 'UTC') c;
    -- The same days at the report's grains, in the same transaction as their rows and the mark.
    perform private.roll_up_ggr_cells(roll_up_ggr.client_id, through + 1, closed);
    through := closed;
  end if;
  insert into private.ggr_rolled_up as g (client_id, through) values (roll_up_ggr.client_id, through)
  on conflict on constraint ggr_rolled_up_pkey do update set through = excluded.through;
  return through;
end;
$$;
revoke execute on function private.roll_up_ggr from public, anon, authenticated, service_role;

-- Rolls up at most max_days closed days of one client that has some to roll up and whose roll-up
-- no other caller holds; the number of clients whose mark moved (0 or 1). Called by the delivery runner on
-- each round: when nothing is due it reads the clients' marks and nothing else.
create function private.roll_up_due_ggr(max_days int default 31) returns int
language plpgsql
set search_path = ''
as $$
declare
  closed date := ((now() - interval '1 hour') at time zone 'UTC')::date - 1;
  candidate record;
begin
  for candidate in
    -- Behind: a mark before the last closed day, or no mark and some play.
    select p.id, g.through
    from public.profile p
    left join private.ggr_rolled_up g on g.client_id = p.id
    where (g.through < closed)
       or (g.client_id is null and exists (select 1 from public.round_transaction t where t.client_id = p.id))
    order by g.through nulls first, p.id
  loop
    -- The lock private.roll_up_ggr takes (held to the end of this transaction): a client another
    -- runner is rolling up is left to it. A client whose mark a seamless debit still waiting holds
    -- back does not move: the next one is taken.
    if pg_try_advisory_xact_lock(hashtextextended(candidate.id::text || ' ggr roll-up', 0))
       and private.roll_up_ggr(candidate.id, roll_up_due_ggr.max_days) is distinct from candidate.through then
      return 1;
    end if;
  end loop;
  return 0;
end;
$$;
revoke execute on function private.roll_up_due_ggr from public, anon, authenticated, service_role;
