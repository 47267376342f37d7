-- The ledger's hot path, second part (issue 38): the currency_code index held an entry for every
-- ledger row, and the engine writes two a round. Nothing reads the ledger by its currency alone:
-- the API's and the back office's reads start from the client (the wallet statement's
-- (client_id, currency_code, ledger_seq) index serves a currency of one client). Its one reader
-- was the foreign key's check when a currency row is deleted or its code changed, a staff change to
-- reference data that now reads the ledger whole instead of by index; the key itself stays, so a
-- currency the ledger uses is still never deleted nor renamed.
--
-- Replaces the wallets and transactions migration's transaction_currency_code_idx.
drop index public.transaction_currency_code_idx;
