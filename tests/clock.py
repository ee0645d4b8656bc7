"""The tests' fixed clock. A test whose code asks the time ("today", "from yesterday on") travels to a fixed
moment instead of reading the machine's calendar, so it passes on any date the suite is run (issue 45: three tests
failed on 2 December because a night fixed at 26 November had become "before yesterday").

No Django here: tests/conftest.py imports this before the apps are ready."""

import datetime
import zoneinfo

import time_machine

TONIGHT = datetime.date(2026, 11, 26)  # the league nights' Thursday
SITE_ZONE = zoneinfo.ZoneInfo("Europe/Amsterdam")  # settings.TIME_ZONE's default
EVENING = datetime.time(20, 0)


def travel_to(day: datetime.date, at: datetime.time = EVENING) -> time_machine.travel:
    """The clock at `at` on `day`, the site's local time, ticking on from there (timeouts and ordering by time still
    see time pass). Python's clock only: PostgreSQL's now() and a Celery worker in another process keep the real
    one, so a test under it compares no database timestamp with Python's."""
    return time_machine.travel(datetime.datetime.combine(day, at, tzinfo=SITE_ZONE), tick=True)
