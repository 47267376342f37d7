// The reports dashboard: plain JavaScript over the operator API and Chart.js (vendored from npm by
// the static server, nothing loaded from elsewhere). The key is held in this page's memory only and
// sent only to the API: by default the same origin's /api/v3, which npm start passes on to the
// function (no CORS needed), or another base given as ?api=.
'use strict';

const api = new URLSearchParams(location.search).get('api') ?? '/api/v3';
const $ = (id) => document.querySelector(`[data-testid=${id}]`);
const TOP_GAMES = 10;
const charts = [];

/** A UTC day as YYYY-MM-DD, `offset` days from today. */
function utcDay(offset = 0) {
  return new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
}

/** Every UTC day from `from` to `to`, both included. */
function daysBetween(from, to) {
  const days = [];
  for (let at = Date.parse(`${from}T00:00:00Z`); at <= Date.parse(`${to}T00:00:00Z`); at += 86_400_000) {
    days.push(new Date(at).toISOString().slice(0, 10));
  }
  return days;
}

function status(text, error = false) {
  $('status').textContent = text;
  $('status').classList.toggle('error', error);
}

/** A call to the API with the key; a refusal becomes an Error with the problem's own words. */
async function call(path, accept = 'application/json') {
  const response = await fetch(`${api}${path}`, { headers: { authorization: `Bearer ${$('key').value.trim()}`, accept } });
  if (!response.ok) {
    const problem = await response.json().catch(() => ({}));
    throw new Error(`${response.status} ${problem.code ?? ''}: ${problem.detail ?? problem.title ?? response.statusText}`);
  }
  return response;
}

// Amounts arrive as exact decimal strings; a chart can only plot numbers, so the charts take their
// value as a number while every table shows the string as it came.
const plotted = (amount) => Number(amount);

function figure(container, id, caption) {
  const figure = document.createElement('figure');
  figure.dataset.testid = id;
  figure.innerHTML = `<figcaption></figcaption><canvas></canvas>`;
  figure.querySelector('figcaption').textContent = caption;
  container.append(figure);
  return figure;
}

function daily(report, from, to) {
  const days = daysBetween(from, to);
  const byCurrency = Map.groupBy(report.data, (cell) => cell.currency);
  for (const [currency, cells] of [...byCurrency].sort(([a], [b]) => a.localeCompare(b))) {
    const byDay = new Map(cells.map((cell) => [cell.day, cell]));
    const canvas = figure($('daily'), `daily-${currency}`, currency).querySelector('canvas');
    charts.push(new Chart(canvas, {
      data: {
        labels: days,
        datasets: [
          { type: 'bar', label: 'Turnover (bets)', data: days.map((day) => plotted(byDay.get(day)?.bets ?? '0')), backgroundColor: '#9ec5fe' },
          { type: 'line', label: 'GGR', data: days.map((day) => plotted(byDay.get(day)?.ggr ?? '0')), borderColor: '#0b57d0', tension: 0.2 },
        ],
      },
      options: { animation: false, responsive: true, scales: { y: { beginAtZero: true } } },
    }));
  }
}

function topGames(report) {
  const byCurrency = Map.groupBy(report.data, (cell) => cell.currency);
  for (const [currency, cells] of [...byCurrency].sort(([a], [b]) => a.localeCompare(b))) {
    // Ordered by turnover, compared exactly: four decimal places, so the digits without the point.
    const top = cells.toSorted((a, b) => {
      const [x, y] = [BigInt(a.bets.replace('.', '')), BigInt(b.bets.replace('.', ''))];
      return x === y ? a.game_id.localeCompare(b.game_id) : (y > x ? 1 : -1);
    }).slice(0, TOP_GAMES);
    const box = figure($('games'), `games-${currency}`, currency);
    charts.push(new Chart(box.querySelector('canvas'), {
      type: 'bar',
      data: {
        labels: top.map((cell) => cell.game_id),
        datasets: [
          { label: 'Turnover (bets)', data: top.map((cell) => plotted(cell.bets)), backgroundColor: '#9ec5fe' },
          { label: 'GGR', data: top.map((cell) => plotted(cell.ggr)), backgroundColor: '#0b57d0' },
        ],
      },
      options: { animation: false, indexAxis: 'y', responsive: true },
    }));
    const table = document.createElement('table');
    table.innerHTML = '<thead><tr><th>Game</th><th>Bets</th><th>GGR</th><th>Rounds</th></tr></thead><tbody></tbody>';
    for (const cell of top) table.tBodies[0].append(row([cell.game_id, cell.bets, cell.ggr, cell.rounds]));
    box.append(table);
  }
}

function row(values) {
  const tr = document.createElement('tr');
  for (const value of values) tr.append(Object.assign(document.createElement('td'), { textContent: String(value) }));
  return tr;
}

async function show(event) {
  event.preventDefault();
  const [from, to] = [$('from').value, $('to').value];
  $('show').disabled = true;
  status('Loading…');
  try {
    const query = (groupBy) => `/reports/ggr?${new URLSearchParams({ from, to, group_by: groupBy })}`;
    const [days, games] = await Promise.all([
      call(query('day,currency')).then((r) => r.json()),
      call(query('game,currency')).then((r) => r.json()),
    ]);
    charts.splice(0).forEach((chart) => chart.destroy());
    $('daily').replaceChildren();
    $('games').replaceChildren();
    $('totals').tBodies[0].replaceChildren(...days.totals.map((t) => row([
      t.currency, t.bets, t.wins, t.rolled_back, t.voided, t.free_round_wins, t.ggr, t.rounds, t.players,
    ])));
    daily(days, from, to);
    topGames(games);
    $('report').hidden = false;
    status(days.totals.length ? `${days.livemode ? 'Live' : 'Test'} play, ${from} to ${to} (UTC).` : `No play from ${from} to ${to}.`);
  } catch (error) {
    status(error.message, true);
  } finally {
    $('show').disabled = false;
  }
}

async function download() {
  const day = $('day').value;
  $('download').disabled = true;
  status(`Preparing ${day}…`);
  try {
    const file = await (await call(`/reconciliation/transactions?${new URLSearchParams({ date: day })}`, 'text/csv')).blob();
    const link = Object.assign(document.createElement('a'), { href: URL.createObjectURL(file), download: `reconciliation-${day}.csv` });
    link.click();
    // Let go of the file once the browser has surely taken it.
    setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
    status(`Downloaded reconciliation-${day}.csv.`);
  } catch (error) {
    status(error.message, true);
  } finally {
    $('download').disabled = false;
  }
}

$('from').value = utcDay(-29);
$('to').value = utcDay();
$('day').value = utcDay();
$('settings').addEventListener('submit', show);
$('download').addEventListener('click', download);
