-- The sandbox, second part: the demo provider and its games. `cgs-sandbox` is a provider of the
-- catalogue that exists for test keys alone (game_provider.test_only: live keys neither list its
-- games nor launch them), and its games' launch URL opens the demo game, a static web page
-- (sandbox/demo-game) that plays through the real provider API with the session's token: bets,
-- wins and rollbacks move the test player's balance or call the operator's test wallet, and raise
-- webhooks, as a real provider's would.
--
-- A browser page cannot keep a secret, so the demo provider's key is public: it is written here and
-- in the page. It can only ever play test sessions, which a live key cannot open.

-- ============================================================================================
-- Reference data
-- ============================================================================================
insert into public.game_provider (name, slug, category, sort_order, test_only, jurisdictions) values
  ('CGS Sandbox', 'cgs-sandbox', 'Demo games for test mode', 1000, true, '{MT,GB,SE,ON,CW}');

insert into public.game (provider_id, code, name, category, rtp, volatility, features, demo)
select gp.id, g.code, g.name, 'slots', g.rtp, g.volatility, g.features, true
from public.game_provider gp
cross join (values
  ('lucky-sevens', 'Lucky Sevens', 96.00, 'medium', '{autoplay}'::text[]),
  ('fruit-stand', 'Fruit Stand', 95.50, 'low', '{}'::text[]),
  ('high-roller', 'High Roller', 94.00, 'high', '{multipliers}'::text[])
) as g (code, name, rtp, volatility, features)
where gp.slug = 'cgs-sandbox';

-- cgs_prov_SANDBOX-demo-game-public-key-test-only-0000, stored as every key is: by its SHA-256.
insert into public.provider_key (provider_id, label, key_prefix, key_hash)
select gp.id, 'Demo game (public, test sessions only)', 'cgs_prov_SANDBOX',
       '512feeb33cd512f1ab0c5e01f07fe24b9ceb36d955de038bf7d1f746c26ba501'
from public.game_provider gp
where gp.slug = 'cgs-sandbox';
