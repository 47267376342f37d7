// The operator's own money: GET /v3/wallets (its balance in each currency, spec 2.4), GET/PUT
// /v3/wallet-settings (transfer or seamless), and GET
// /v3/transactions (its ledger, spec 2.6, newest first, cursor pages). Amounts are decimal strings
// with four places, exactly as stored. Never cached: balances move. Each request is one database
// call that checks the key too; a caller without a working key gets 401 before any 400.
import { Hono } from 'hono';
import { type Caller, type CallerEnv, operatorKey } from '../caller.ts';
import { jsonResponse, jsonTextResponse } from '../http.ts';
import { pageJson, pageOfAll, parseListQuery } from '../list-query.ts';
import { Problem } from '../problem.ts';
import { readJsonBody } from '../request-body.ts';
import { checkCallableUrl } from '../callable-url.ts';
import type { ApiContext } from '../context.ts';
import { bodyContract, queryContract } from '../contract.ts';
import { resource } from '../resource.ts';
import { type ReferenceProblem, refuseUnknownReferences } from '../reference.ts';

const walletsQuery = queryContract('/v3/wallets');
const walletSettingsBody = bodyContract('/v3/wallet-settings', 'put');
const transactionsQuery = queryContract('/v3/transactions');
const noStore = { 'cache-control': 'no-store' };

/** The routes of this resource, relative to /v3. */
export function walletRoutes(ctx: ApiContext): Hono<CallerEnv> {
  const app = new Hono<CallerEnv>({ strict: false });
  const key = operatorKey(ctx.sql);
  resource(app, '/wallets', { get: (c) => listWallets(ctx, c.var.caller, c.req.raw) }, key);
  resource(app, '/wallet-settings', {
    get: (c) => readWalletSettings(ctx, c.var.caller),
    put: (c) => putWalletSettings(ctx, c.var.caller, c.req.raw),
  }, key);
  return resource(app, '/transactions', { get: (c) => listTransactions(ctx, c.var.caller, c.req.raw) }, key);
}

/** What the database answers a PUT of the wallet settings (private.put_wallet_settings). */
type PutSettingsOutcome = 'updated' | 'url_required' | 'rounds_open' | 'unauthorized';

/** GET /v3/wallets: one wallet per currency, the primary first; a client has a handful, read whole. */
export async function listWallets(ctx: ApiContext, caller: Caller, request: Request): Promise<Response> {
  const query = parseListQuery(new URL(request.url), walletsQuery, 1);
  const rows = await caller.answer(ctx.sql<{ authorized: boolean; wallet: Record<string, unknown> | null }[]>`
    select * from private.list_wallets(${caller.keyHash})`);
  const wallets = rows.flatMap((row) => (row.wallet ? [row.wallet] : []));
  return jsonResponse(200, pageOfAll(wallets, query, 'currency'), noStore);
}

/** GET /v3/transactions: the ledger newest first, filtered, paged by the order of recording. */
export async function listTransactions(ctx: ApiContext, caller: Caller, request: Request): Promise<Response> {
  const query = parseListQuery(new URL(request.url), transactionsQuery, 1, ([seq]) => /^[1-9][0-9]{0,17}$/.test(seq));
  const { currency, type, created_after, created_before } = query.filters;
  const rows = await caller.answer(ctx.readSql<{ authorized: boolean; seq: string | null; transaction: string; problems: ReferenceProblem[] }[]>`
    select t.*, (select private.reference_problems(${currency ?? null})) as problems from private.list_transactions(${caller.keyHash}, ${currency ?? null}, ${type ?? null}, ${created_after ?? null},
      ${created_before ?? null}, ${query.after?.[0] ?? null}, ${query.limit + 1}) t`);
  refuseUnknownReferences(rows[0].problems, 'query');
  const found = rows.flatMap((row) => (row.seq ? [row] : []));
  return jsonTextResponse(200, pageJson(found, query.limit, (row) => [String(row.seq)], (row) => row.transaction), noStore);
}

/** GET /v3/wallet-settings: the caller's wallet mode in its key's mode. */
export async function readWalletSettings(ctx: ApiContext, caller: Caller): Promise<Response> {
  const [row] = await caller.answer(ctx.sql<{ authorized: boolean; settings: string }[]>`
    select * from private.read_wallet_settings(${caller.keyHash})`);
  return jsonTextResponse(200, row.settings, noStore);
}

/**
 * PUT /v3/wallet-settings: sets the mode (and the seamless wallet's url). The signing secret is in
 * the answer once, when one is made; it is never readable again.
 */
export async function putWalletSettings(ctx: ApiContext, caller: Caller, request: Request): Promise<Response> {
  const body = walletSettingsBody(await readJsonBody(request, ctx.config.maxBodyBytes));
  await checkCallableUrl(ctx, body.url);
  const [row] = await caller.answer(ctx.sql<{ outcome: PutSettingsOutcome; settings: string | null; secret: string | null }[]>`
    select * from private.put_wallet_settings(${caller.keyHash}, ${body.mode}, ${body.url ?? null}, ${body.rotate_secret ?? false},
      ${body.low_balance_alerts ? ctx.sql.json(body.low_balance_alerts) : null})`);
  switch (row.outcome) {
    case 'updated': {
      const settings = JSON.parse(row.settings!);
      return jsonResponse(200, row.secret ? { ...settings, secret: row.secret } : settings, noStore);
    }
    case 'url_required':
      throw new Problem('validation_failed', 'The request body has invalid fields; see `errors`.', {
        errors: [{ pointer: '#/url', code: 'required', detail: 'url is required to switch to seamless.' }],
      });
    case 'rounds_open':
      throw new Problem('rounds_open', 'Rounds of yours in this mode are open: they must settle in the wallet they started in.');
  }
}
