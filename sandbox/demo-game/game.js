// The sandbox's demo slot. It is the demo provider's game: it plays through the platform's real
// provider API with the session token from its launch URL, as a provider's game server would, so a
// spin is a bet and a win (or a rollback when a bet's fate is unknown), moving the test player's
// balance or calling the operator's test wallet, and raising the operator's webhooks.
//
// Free spins: when the session's player holds a free-round grant for this game (GET
// /v3/provider/free-rounds), the game shows "free spins: N left" and plays them first, each a free
// bet of the grant's stake that costs the player nothing; a lump-sum game (High Roller) sends the
// grant's winnings in one payout after its last free spin.
//
// It honours what the token carries: the jurisdiction's maximum stake and minimum round duration,
// showing session time and net position where required, and reality checks at the session's (or
// the jurisdiction's) interval. Money is counted in ten-thousandths as BigInt, never floats.

import { ApiProblem, claimsOf, providerApi } from '../shared/provider-api.js';

const BET_SIZES = ['0.10', '0.20', '0.50', '1.00', '2.00', '5.00', '10.00', '25.00'];
// Characters every system font has (no emoji font needed), each with its colour in the stylesheet.
const SYMBOLS = ['7', 'BAR', '★', '♦', '♣', '♥'];
// Three of a kind pays its multiple (in tenths); two of a kind pays 1.5×.
const TRIPLE_TENTHS = { '7': 200n, BAR: 100n, '★': 50n, '♦': 40n, '♣': 30n, '♥': 20n };
const PAIR_TENTHS = 15n;
const GAME_NAMES = { 'lucky-sevens': 'Lucky Sevens', 'fruit-stand': 'Fruit Stand', 'high-roller': 'High Roller' };
const SPIN_MS = 600;
// Games whose free rounds pay in one sum at the end (their catalogue terms say lump_sum).
const LUMP_SUM_GAMES = new Set(['high-roller']);

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const token = params.get('token');
const api = (params.get('api') ?? `${location.origin}/functions/v1/v3`).replace(/\/$/, '');

// ---- money: decimal strings <-> ten-thousandths ----
function units(decimal) {
  const [whole, fraction = ''] = String(decimal).split('.');
  const sign = whole.startsWith('-') ? -1n : 1n;
  return sign * (BigInt(whole.replace('-', '') || '0') * 10000n + BigInt((fraction + '0000').slice(0, 4)));
}
function decimal(amount) {
  const sign = amount < 0n ? '-' : '';
  const abs = amount < 0n ? -amount : amount;
  return `${sign}${abs / 10000n}.${String(abs % 10000n).padStart(4, '0')}`;
}
const shown = (amount) => decimal(amount).replace(/(\.\d\d)\d\d$/, '$1');

// ---- the token's claims and the provider API (shared with the other demo pages) ----
const call = providerApi(api);

/** A win or rollback must land: the same transaction_id again is safe (it applies once). */
async function settle(path, body) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await call('POST', path, body);
    } catch (error) {
      if (!(error instanceof ApiProblem) || !error.unknown || attempt === 4) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250 * 2 ** attempt));
    }
  }
}

// ---- the game ----
const claims = token && claimsOf(token);
const rules = claims?.rules ?? {};
const state = {
  balance: null,
  net: 0n,
  startedAt: Date.now(),
  spinning: false,
  left: false,
  pausedForRealityCheck: false,
  realityCheckMinutes: claims?.reality_check_minutes ?? rules.reality_check_minutes ?? null,
  // The grant being played: { id, left, bet, won } (won: a lump-sum grant's wins so far), or null.
  free: null,
};

function showProblem(message) {
  $('problem').textContent = message;
  $('problem').hidden = !message;
}

function problemMessage(error) {
  if (!(error instanceof ApiProblem)) return String(error);
  if (error.status === 0) return 'The game server could not be reached.';
  const { code, detail, title } = error.problem ?? {};
  return `${title ?? 'Refused'}${code ? ` (${code})` : ''}: ${detail ?? `HTTP ${error.status}`}`;
}

function render() {
  $('balance').textContent = state.balance === null ? '…' : `${shown(state.balance)} ${claims.currency}`;
  $('net').textContent = `${state.net >= 0n ? '+' : ''}${shown(state.net)}`;
  $('spin').disabled = state.spinning || state.left || state.pausedForRealityCheck || state.balance === null;
  $('free-spins').hidden = !state.free;
  $('free-spins').textContent = state.free
    ? `free spins: ${state.free.left} left (${shown(state.free.bet)} ${claims.currency} each)` : '';
  $('bet-size').disabled = Boolean(state.free);
  $('spin').textContent = state.free ? 'Free spin' : 'Spin';
}

/** The grant to play next: the first the platform says this session can play (free rounds are an extra: without them the game plays on). */
async function loadFreeRounds() {
  try {
    const { data } = await call('GET', `/provider/free-rounds?session_token=${encodeURIComponent(token)}`);
    const grant = data.find((g) => g.rounds_left > 0);
    state.free = grant
      ? { id: grant.id, left: grant.rounds_left, bet: units(grant.bet_amount), won: state.free?.id === grant.id ? state.free.won : 0n }
      : null;
  } catch {
    state.free = null;
  }
}

function spinDuration() {
  return Math.max(SPIN_MS, Number(rules.min_round_ms ?? 0));
}

function randomSymbols() {
  const picks = crypto.getRandomValues(new Uint32Array(3));
  return [...picks].map((n) => SYMBOLS[n % SYMBOLS.length]);
}

/** The win for a bet and a line, in ten-thousandths. */
function payout(bet, line) {
  const counts = new Map();
  for (const symbol of line) counts.set(symbol, (counts.get(symbol) ?? 0) + 1);
  const [symbol, most] = [...counts].sort((a, b) => b[1] - a[1])[0];
  if (most === 3) return (bet * TRIPLE_TENTHS[symbol]) / 10n;
  if (most === 2) return (bet * PAIR_TENTHS) / 10n;
  return 0n;
}

function show(reel, symbol) {
  reel.textContent = symbol;
  reel.dataset.symbol = String(SYMBOLS.indexOf(symbol));
}

async function animate(line) {
  const reels = [...document.querySelectorAll('.reel span')];
  document.querySelector('.reels').classList.add('spinning');
  const started = performance.now();
  const duration = spinDuration();
  await new Promise((resolve) => {
    const tick = () => {
      const elapsed = performance.now() - started;
      reels.forEach((reel, i) => {
        const stopsAt = duration * (0.6 + 0.2 * i);
        show(reel, elapsed < stopsAt ? SYMBOLS[Math.floor(Math.random() * SYMBOLS.length)] : line[i]);
      });
      if (elapsed < duration) requestAnimationFrame(tick);
      else resolve();
    };
    requestAnimationFrame(tick);
  });
  reels.forEach((reel, i) => show(reel, line[i]));
  document.querySelector('.reels').classList.remove('spinning');
}

function addHistory({ roundId, bet, win, balance, note, free = false }) {
  $('no-rounds').hidden = true;
  const row = document.createElement('tr');
  row.dataset.roundId = roundId;
  if (free) row.dataset.free = 'true';
  row.className = note ? 'cancelled' : win > 0n ? 'won' : 'lost';
  const cells = [
    new Date().toLocaleTimeString(),
    roundId.slice(0, 14),
    free ? `free ${shown(bet)}` : shown(bet),
    note ?? (win > 0n ? shown(win) : '0.00'),
    shown(balance),
  ];
  for (const text of cells) {
    const cell = document.createElement('td');
    cell.textContent = text;
    row.append(cell);
  }
  $('history').prepend(row);
}

async function spin() {
  if (state.spinning) return;
  state.spinning = true;
  showProblem('');
  render();
  const free = state.free;
  const bet = free ? free.bet : units($('bet-size').value);
  const roundId = `round-${crypto.randomUUID()}`;
  const betId = `bet-${crypto.randomUUID()}`;
  try {
    let answer;
    try {
      answer = await call('POST', '/provider/bets', {
        session_token: token, transaction_id: betId, round_id: roundId, amount: decimal(bet), ...(free && { free_round_grant_id: free.id }),
      });
    } catch (error) {
      if (error instanceof ApiProblem && error.unknown) {
        // The bet may or may not have been taken: roll it back, as a provider must.
        const undone = await settle('/provider/rollbacks', {
          session_token: token, transaction_id: `rollback-${crypto.randomUUID()}`, rolled_back_transaction_id: betId,
        });
        state.balance = units(undone.balance);
        addHistory({ roundId, bet, win: 0n, balance: state.balance, note: 'rolled back' });
        $('outcome').textContent = 'The bet could not be confirmed and was rolled back.';
      }
      throw error;
    }
    state.balance = units(answer.balance);
    render();
    const line = randomSymbols();
    const win = payout(bet, line);
    await animate(line);
    const settled = await settle('/provider/wins', {
      session_token: token, transaction_id: `win-${crypto.randomUUID()}`, round_id: roundId,
      bet_transaction_id: betId, amount: decimal(win), round_closed: true,
    });
    state.balance = units(settled.balance);
    // A free spin cost nothing: only its win counts.
    state.net += free ? win : win - bet;
    $('last-win').textContent = win > 0n ? shown(win) : '–';
    const kind = free ? 'Free spin · ' : '';
    $('outcome').textContent = win > 0n ? `${kind}${line.join(' ')} · You win ${shown(win)} ${claims.currency}!` : `${kind}${line.join(' ')} · No win this time.`;
    $('outcome').className = `outcome ${win > 0n ? 'won' : 'lost'}`;
    addHistory({ roundId, bet, win, balance: state.balance, free: Boolean(free) });
    if (free) {
      free.won += win;
      free.left -= 1;
      // A lump-sum game pays the grant's winnings in one payout after its last free spin (a
      // per-round game's wins were each paid as they came).
      if (free.left === 0 && LUMP_SUM_GAMES.has(claims.game_id.split(':')[1])) {
        const paid = await settle(`/provider/free-rounds/${free.id}/payout`, { transaction_id: `payout-${crypto.randomUUID()}`, amount: decimal(free.won) });
        state.balance = units(paid.balance);
        $('outcome').textContent = `Free spins over · ${shown(free.won)} ${claims.currency} paid.`;
      }
      await loadFreeRounds();
    }
  } catch (error) {
    showProblem(problemMessage(error));
    if (free) await loadFreeRounds();
  } finally {
    state.spinning = false;
    render();
  }
}

function elapsedText() {
  const seconds = Math.floor((Date.now() - state.startedAt) / 1000);
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = String(seconds % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

function realityCheck() {
  if (state.left) return;
  state.pausedForRealityCheck = true;
  render();
  const minutes = Math.round((Date.now() - state.startedAt) / 60000);
  $('reality-text').textContent =
    `You have been playing for ${minutes} minute${minutes === 1 ? '' : 's'}. ` +
    `Your net result this session is ${state.net >= 0n ? '+' : ''}${shown(state.net)} ${claims.currency}.`;
  $('reality-check').showModal();
}

function setUp() {
  const game = claims.game_id.split(':')[1];
  const name = GAME_NAMES[game] ?? game;
  document.title = `${name} · CGS Sandbox demo game`;
  $('game-name').textContent = name;

  // The jurisdiction's maximum stake applies in its currency.
  const maxStake = rules.max_stake && rules.max_stake_currency === claims.currency ? units(rules.max_stake) : null;
  for (const size of BET_SIZES) {
    const option = new Option(`${size} ${claims.currency}`, size);
    if (maxStake !== null && units(size) > maxStake) option.disabled = true;
    $('bet-size').append(option);
  }
  $('bet-size').value = '1.00';

  $('net-meter').hidden = !rules.show_net_position;
  $('time-meter').hidden = !rules.show_session_time;
  setInterval(() => ($('elapsed').textContent = elapsedText()), 1000);
  if (state.realityCheckMinutes) setInterval(realityCheck, state.realityCheckMinutes * 60_000);

  const facts = [
    ['Player', claims.sub], ['Game', claims.game_id], ['Currency', claims.currency],
    ['Session', claims.jti], ['Jurisdiction', claims.jurisdiction ?? 'none'], ['KYC', claims.kyc_status ?? 'not given'],
    ['Reality check', state.realityCheckMinutes ? `every ${state.realityCheckMinutes} min` : 'off'],
    ...(maxStake !== null ? [['Max stake', `${shown(maxStake)} ${rules.max_stake_currency}`]] : []),
    ...(rules.min_round_ms ? [['Min round', `${rules.min_round_ms} ms`]] : []),
  ];
  for (const [label, value] of facts) {
    const item = document.createElement('span');
    item.innerHTML = `<b></b> `;
    item.firstChild.textContent = `${label}:`;
    item.append(String(value));
    $('session-info').append(item);
  }

  $('spin').addEventListener('click', spin);
  $('reality-continue').addEventListener('click', () => {
    $('reality-check').close();
    state.pausedForRealityCheck = false;
    render();
  });
  $('reality-leave').addEventListener('click', () => {
    $('reality-check').close();
    state.left = true;
    state.pausedForRealityCheck = false;
    $('outcome').textContent = 'You left the game. Close this window to return to the casino.';
    render();
  });
}

async function start() {
  if (!claims) {
    showProblem('This page is the demo game: open it from a test session\'s launch_url (it carries the session token).');
    return;
  }
  setUp();
  try {
    const answer = await call('GET', `/provider/balance?session_token=${encodeURIComponent(token)}`);
    state.balance = units(answer.balance);
    await loadFreeRounds();
  } catch (error) {
    showProblem(problemMessage(error));
  }
  render();
}

// The demo provider's sportsbook launches through the same URL (the demo provider's one launch
// URL): its own page, ../sportsbook/, with the same query.
if (claims?.game_id === 'cgs-sandbox:sportsbook') location.replace(`../sportsbook/${location.search}`);
else start();
