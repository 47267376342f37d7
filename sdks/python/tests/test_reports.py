"""Reports over a scripted local server: a GGR report asked with its dimensions as a list and its
days under `from` and `to`, a reconciliation page with its totals, the reconciliation as CSV, a
month's statement."""

from __future__ import annotations

import csv
import datetime as dt
import io
from decimal import Decimal
from urllib.parse import parse_qs, urlsplit

from conftest import Reply

CELL = {"currency": "EUR", "bets": "10.0000", "wins": "4.0000", "free_round_wins": "0.0000", "rolled_back": "1.0000",
        "voided": "0.0000", "ggr": "5.0000", "rounds": 3, "players": 1, "sportsbook": None}
SPORTSBOOK = {"bets": 2, "stakes": "20.0000", "refunded": "5.0000", "payouts": "-3.5000", "ggr": "18.5000"}


def query_of(request) -> dict:
    return {name: values[0] for name, values in parse_qs(urlsplit(request.path).query).items()}


def test_a_ggr_report_sends_its_days_and_dimensions_and_reads_money_as_decimal(fake_api):
    fake_api.script = [Reply(200, {"object": "ggr_report", "livemode": True, "first_day": "2026-11-01", "last_day": "2026-11-30",
                                   "group_by": ["day", "provider"], "data": [dict(CELL, day="2026-11-02", provider="p")],
                                   "totals": [dict(CELL, sportsbook=SPORTSBOOK)]})]
    report = fake_api.client().reports.ggr(from_=dt.date(2026, 11, 1), to="2026-11-30", group_by=["day", "provider"], currency="EUR")
    assert query_of(fake_api.requests[0]) == {"from": "2026-11-01", "to": "2026-11-30", "group_by": "day,provider", "currency": "EUR"}
    assert fake_api.requests[0].path.startswith("/functions/v1/v3/reports/ggr?")
    assert report.data[0].ggr == Decimal("5.0000") and report.data[0].provider == "p"
    assert report.totals[0].day is None
    assert report.data[0].sportsbook is None
    assert report.totals[0].sportsbook.payouts == Decimal("-3.5") and report.totals[0].sportsbook.bets == 2


def test_a_reconciliation_page_carries_the_totals_and_the_statement_its_lines(fake_api):
    fake_api.script = [
        Reply(200, {"data": [], "next_cursor": None, "has_more": False, "totals": [
            {"currency": "EUR", "transactions": 0, "bets": "0.0000", "wins": "0.0000", "rollbacks": "0.0000", "moved": "0.0000"}]}),
        Reply(200, {"object": "statement", "month": "2026-10", "livemode": True, "status": "issued", "fee_rate": "0.150000",
                    "issued_at": "2026-11-01T01:00:00Z", "lines": [{"provider": "p", "currency": "EUR", "bets": "100.0000",
                    "wins": "90.0000", "free_round_wins": "0.0000", "rolled_back": "0.0000", "voided": "0.0000", "ggr": "10.0000",
                    "amount_due": "1.5000"}], "totals": [{"currency": "EUR", "ggr": "10.0000", "amount_due": "1.5000"}]}),
    ]
    client = fake_api.client()
    page = client.reports.reconciliation(date="2026-11-24", limit=10)
    assert query_of(fake_api.requests[0]) == {"date": "2026-11-24", "limit": "10"}
    assert page.totals[0].moved == Decimal("0")
    statement = client.reports.statement("2026-10")
    assert fake_api.requests[1].path == "/functions/v1/v3/statements/2026-10"
    assert statement.lines[0].amount_due == Decimal("1.5000") and statement.totals[0].amount_due == Decimal("1.5")


def test_the_reconciliation_csv_asks_for_csv_and_answers_its_bytes_as_sent(fake_api):
    body = "\ufeffcreated_at,id,provider\r\n2026-11-24T10:00:00.000000Z,b6f0,\"'=p\"\r\n".encode("utf-8")
    fake_api.script = [Reply(200, body, headers={"content-type": "text/csv; charset=utf-8; header=present"})]
    data = fake_api.client().reports.reconciliation_csv(date=dt.date(2026, 11, 24))
    assert data == body
    assert query_of(fake_api.requests[0]) == {"date": "2026-11-24"}
    assert fake_api.requests[0].headers["accept"] == "text/csv"
    rows = list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))
    assert rows[0] == ["created_at", "id", "provider"] and rows[1][2] == "'=p"
