// The sandbox's demo sportsbook. It is the demo provider's sportsbook (`cgs-sandbox:sportsbook`): it
// places bets through the platform's real provider API with the session token from its launch URL,
// as a sportsbook provider's server would, so a bet takes its stake from the test player's balance
// (or the operator's test wallet) and raises the operator's webhooks. Its fixtures are fictional and
// its own; a bet's selections name them (`fixture_id`, `pick`, `odds`), and the operator settles,
// resettles and voids a fixture with its test key (POST /v3/sandbox/sportsbook/fixtures/{id}/settle,
// /resettle, /void), the platform playing this provider's part. Money is counted in
// ten-thousandths as BigInt, never floats; odds in hundredths.

import { ApiProblem, claimsOf, providerApi } from '../shared/provider-api.js';

export const FIXTURES = [
  { id: 'northport-eastbay', home: 'Northport FC', away: 'Eastbay United', kickoff: 'Sat 15:00', odds: { home: '2.10', draw: '3.40', away: '3.25' } },
  { id: 'westfield-southgate', home: 'Westfield Rovers', away: 'Southgate Athletic', kickoff: 'Sat 17:30', odds: { home: '1.85', draw: '3.60', away: '4.20' } },
  { id: 'riverton-hillcrest', home: 'Riverton City', away: 'Hillcrest Town', kickoff: 'Sun 13:00', odds: { home: '2.50', draw: '3.10', away: '2.80' } },
  { id: 'lakeside-millbrook', home: 'Lakeside Wanderers', away: 'Millbrook Albion', kickoff: 'Sun 15:00', odds: { home: '1.65', draw: '3.90', away: '5.00' } },
  { id: 'harbour-kingsley', home: 'Harbour Rangers', away: 'Kingsley Park', kickoff: 'Mon 20:00', odds: { home: '3.00', draw: '3.30', away: '2.30' } },
];
const PICKS = ['home', 'draw', 'away'];

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const token = params.get('token');
const api = (params.get('api') ?? `${location.origin}/functions/v1/v3`).replace(/\/$/, '');

// ---- money and odds: decimal strings <-> integers ----
function units(decimal) {
  const [whole, fraction = ''] = String(decimal).split('.');
  return BigInt(whole || '0') * 10000n + BigInt((fraction + '0000').slice(0, 4));
}
function decimal(amount, places = 4) {
  const scale = 10n ** BigInt(places);
  return `${amount / scale}.${String(amount % scale).padStart(places, '0')}`;
}
const shown = (amount) => decimal(amount).replace(/(\.\d\d)\d\d$/, '$1');
const hundredths = (odds) => BigInt(odds.replace('.', ''));
/** The legs' combined odds, exact: a product of hundredths, with two decimals a leg. */
function combined(legs) {
  return { value: legs.reduce((product, leg) => product * hundredths(leg.odds), 1n), places: 2 * legs.length };
}
/** What `stake` (ten-thousandths) pays at the combined odds, to the ten-thousandth below (the platform settles so). */
const potential = (stake, odds) => (stake * odds.value) / 10n ** BigInt(odds.places);
/** The combined odds as the API takes them: at most six decimals (below, never above the exact). */
function oddsText({ value, places }) {
  const kept = places > 6 ? value / 10n ** BigInt(places - 6) : value;
  return decimal(kept, Math.min(places, 6)).replace(/\.?0+$/, '') || '1';
}

// ---- the token's claims and the provider API (shared with the other demo pages) ----
const call = providerApi(api);

/** A placement of unknown fate is sent again as it was: its transaction_id applies once, forever. */
async function place(body) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await call('POST', '/provider/sportsbook/bets', body);
    } catch (error) {
      if (!(error instanceof ApiProblem) || !error.unknown || attempt === 4) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250 * 2 ** attempt));
    }
  }
}

// ---- the page ----
const claims = token && claimsOf(token);
const state = { balance: null, busy: false, placed: 0, slip: new Map() };

function showProblem(message) {
  $('problem').textContent = message;
  $('problem').hidden = !message;
}

function problemMessage(error) {
  if (!(error instanceof ApiProblem)) return String(error);
  if (error.status === 0) return 'The sportsbook could not reach the platform.';
  const { code, detail, title } = error.problem ?? {};
  return `${title ?? 'Refused'}${code ? ` (${code})` : ''}: ${detail ?? `HTTP ${error.status}`}`;
}

const legOf = (fixture, pick) => ({
  fixture_id: fixture.id, event: `${fixture.home} v ${fixture.away}`, market: '1X2', pick, odds: fixture.odds[pick],
});
const pickName = (leg) => (leg.pick === 'draw' ? 'Draw' : leg.pick === 'home' ? leg.event.split(' v ')[0] : leg.event.split(' v ')[1]);

function stakeUnits() {
  const text = $('stake').value.trim();
  return /^\d{1,9}(\.\d{1,2})?$/.test(text) && units(text) > 0n ? units(text) : null;
}

function render() {
  $('balance').textContent = state.balance === null ? '…' : `${shown(state.balance)} ${claims.currency}`;
  $('placed').textContent = String(state.placed);
  for (const button of document.querySelectorAll('.odds')) {
    button.setAttribute('aria-pressed', String(state.slip.get(button.dataset.fixture)?.pick === button.dataset.pick));
  }
  const legs = [...state.slip.values()];
  $('slip').replaceChildren(...legs.map((leg) => {
    const item = document.createElement('li');
    item.dataset.testid = 'slip-leg';
    const what = document.createElement('span');
    what.textContent = `${leg.event} · ${pickName(leg)}`;
    const odds = document.createElement('b');
    odds.textContent = leg.odds;
    item.append(what, odds);
    return item;
  }));
  $('empty-slip').hidden = legs.length > 0;
  const stake = stakeUnits();
  $('place-singles').disabled = state.busy || !legs.length || stake === null;
  $('place-acca').disabled = state.busy || legs.length < 2 || stake === null;
  $('slip-summary').textContent = legs.length >= 2 && stake !== null
    ? `Accumulator at ${oddsText(combined(legs))} pays ${shown(potential(stake, combined(legs)))} ${claims.currency} if every leg wins.`
    : '';
}

function addBetRow(answer, legs, stake, odds, payout) {
  const row = document.createElement('tr');
  row.dataset.betId = answer.bet_id;
  const cells = [
    legs.length > 1 ? 'Accumulator' : 'Single', legs.map((leg) => `${leg.event}: ${pickName(leg)}`).join(' + '),
    shown(stake), oddsText(odds), shown(payout),
  ];
  for (const text of cells) {
    const cell = document.createElement('td');
    cell.textContent = text;
    row.append(cell);
  }
  $('bets').prepend(row);
  $('no-bets').hidden = true;
}

/** Places one bet of `legs` at `stake`; the balance it answers is shown. */
async function placeBet(legs, stake) {
  const odds = combined(legs);
  const payout = potential(stake, odds);
  const body = {
    session_token: token, bet_id: `sb-${crypto.randomUUID()}`, transaction_id: `tx-${crypto.randomUUID()}`,
    amount: decimal(stake), odds: oddsText(odds), potential_payout: decimal(payout), selections: legs,
  };
  const answer = await place(body);
  state.balance = units(answer.balance ?? decimal(state.balance ?? 0n));
  state.placed++;
  addBetRow(answer, legs, stake, odds, payout);
  return answer;
}

async function placeAll(kind) {
  const stake = stakeUnits();
  const legs = [...state.slip.values()];
  if (stake === null || !legs.length) return;
  state.busy = true;
  showProblem('');
  render();
  try {
    const bets = kind === 'acca' ? [legs] : legs.map((leg) => [leg]);
    for (const bet of bets) await placeBet(bet, stake);
    $('outcome').textContent = kind === 'acca'
      ? `Accumulator of ${legs.length} placed.`
      : `${bets.length} single${bets.length === 1 ? '' : 's'} placed.`;
    state.slip.clear();
  } catch (error) {
    showProblem(problemMessage(error));
  }
  state.busy = false;
  render();
}

async function refreshBalance() {
  try {
    const answer = await call('GET', `/provider/balance?session_token=${encodeURIComponent(token)}`);
    state.balance = units(answer.balance);
    showProblem('');
  } catch (error) {
    showProblem(problemMessage(error));
  }
  render();
}

function setUp() {
  for (const fixture of FIXTURES) {
    const row = document.createElement('tr');
    const name = document.createElement('td');
    name.textContent = `${fixture.home} v ${fixture.away}`;
    const kickoff = document.createElement('td');
    kickoff.textContent = fixture.kickoff;
    row.append(name, kickoff);
    for (const pick of PICKS) {
      const cell = document.createElement('td');
      const button = document.createElement('button');
      button.className = 'odds';
      button.textContent = fixture.odds[pick];
      button.dataset.fixture = fixture.id;
      button.dataset.pick = pick;
      button.dataset.testid = `pick-${fixture.id}-${pick}`;
      button.setAttribute('aria-label', `${fixture.home} v ${fixture.away}: ${pick} at ${fixture.odds[pick]}`);
      button.addEventListener('click', () => {
        // One pick a fixture: the same pick again takes it off the slip.
        if (state.slip.get(fixture.id)?.pick === pick) state.slip.delete(fixture.id);
        else state.slip.set(fixture.id, legOf(fixture, pick));
        render();
      });
      cell.append(button);
      row.append(cell);
    }
    $('fixtures').append(row);
  }
  for (const [label, value] of [['Player', claims.sub], ['Product', claims.game_id], ['Currency', claims.currency], ['Session', claims.jti]]) {
    const item = document.createElement('span');
    item.innerHTML = '<b></b> ';
    item.firstChild.textContent = `${label}:`;
    item.append(String(value));
    $('session-info').append(item);
  }
  $('stake').addEventListener('input', render);
  $('place-singles').addEventListener('click', () => placeAll('singles'));
  $('place-acca').addEventListener('click', () => placeAll('acca'));
  $('refresh').addEventListener('click', refreshBalance);
}

async function start() {
  if (!claims) {
    showProblem('This page is the demo sportsbook: open it from a test session\'s launch_url for cgs-sandbox:sportsbook (it carries the session token).');
    return;
  }
  setUp();
  render();
  await refreshBalance();
}

start();
