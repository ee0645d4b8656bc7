"""Paging shared by the apps (games' move history, leagues' lists): a neutral home, so games need not import
leagues for it."""


class LookaheadPage:
    """A page of a list read without counting the list: one row more than the page holds says whether a next page
    follows, which is all a "show more" link needs (partials/show_more.html). The opponents of a player with 1,000
    games are ~1,000 groups of tally rows: counting them cost as much as reading the page. A page number that is
    not one reads the first page; one past the end (or past the last page any list could have) is empty."""

    LAST = 100_000  # no list has more pages; a bigger number is read as this one (an OFFSET the database takes)

    def __init__(self, rows, number, per_page: int) -> None:
        self.number = self.page_number(number)
        start = (self.number - 1) * per_page
        found = list(rows[start : start + per_page + 1])
        self._more = len(found) > per_page
        self.object_list = found[:per_page]

    @classmethod
    def page_number(cls, number) -> int:
        """The page a query parameter asks for: 1 for anything that is not a number."""
        try:
            return min(max(int(number), 1), cls.LAST)
        except (TypeError, ValueError):
            return 1

    def has_next(self) -> bool:
        return self._more

    def has_previous(self) -> bool:
        return self.number > 1

    def has_other_pages(self) -> bool:
        return self.has_previous() or self.has_next()

    def previous_page_number(self) -> int:
        return self.number - 1

    def next_page_number(self) -> int:
        return self.number + 1

    def __iter__(self):
        return iter(self.object_list)

    def __len__(self) -> int:
        return len(self.object_list)
