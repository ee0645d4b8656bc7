"""Issue 26: 50 moves entered on a phone with no network all reach the site within 5 s of the network returning.

    DATABASE_URL=postgres://… .venv/bin/python bench/offline_replay.py [--runs 3]

Runs itself under pytest (for the live server and the browser tests' Chromium fixtures) and prints, per run:
- baseline: the same page entering 50 moves online, one tap after the other, each waited for (the htmx post and
  swap the phone does anyway), so the figure says what the machine gives a move right now;
- replay: 50 "End the turn" taps made offline (they wait in IndexedDB), then the time from switching the network
  back on (Playwright's offline switch) to the page showing the table at seq 50, every move in the log once.
Not a test: the browser test (tests/browser/test_offline.py) checks that all 50 arrive; this measures how fast.
"""

import os
import statistics
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MOVES = 50
END_TURN = 'form[data-move="turn"] button[value="end_turn"]'

if __name__ == "__main__":
    runs = sys.argv[sys.argv.index("--runs") + 1] if "--runs" in sys.argv else "3"
    os.environ["OFFLINE_REPLAY_RUNS"] = runs
    os.chdir(ROOT)
    sys.exit(pytest.main([__file__, "-q", "-s", "-p", "no:cacheprovider", "-o", "timeout=900", "--rootdir", str(ROOT)]))

from tests.browser.conftest import chromium, phone  # noqa: E402,F401  (the browser tests' fixtures)


def seq_is(page, seq: int) -> None:
    page.wait_for_function(
        "seq => document.getElementById('table-body').dataset.seq === String(seq)",
        arg=seq,
        timeout=60_000,
        polling="raf",
    )


@pytest.mark.django_db(transaction=True)
def test_replay_of_fifty_offline_moves(phone, live_server):  # noqa: F811  (the fixture imported above)
    from django.contrib.auth import get_user_model

    from games import services
    from games.models import MoveEvent
    from leagues.people.players import player_for_user

    setup = {
        "clans": ["fujiwara", "minamoto"],
        "units_deck": 20,
        "chosen_specials": ["ninja", "market"],
        "aggression_target": 35,
    }
    users = [get_user_model().objects.create_user(name, password="x") for name in ("alice", "bob")]
    runs = int(os.environ.get("OFFLINE_REPLAY_RUNS", "3"))
    baseline, replay = [], []
    for run in range(runs):
        for offline in (False, True):
            table = services.session_create(
                game="teikoku", created_by=users[0], setup=setup, players=[player_for_user(u) for u in users]
            )
            page = phone(users[0])
            page.goto(table.get_absolute_url())
            page.evaluate("navigator.serviceWorker.ready.then(() => true)")
            if offline:
                page.context.set_offline(True)
                for i in range(1, MOVES + 1):
                    page.locator(END_TURN).click()
                    page.wait_for_function(
                        "n => document.querySelectorAll('#offline-moves li.waiting').length === n", arg=i
                    )
                start = time.perf_counter()
                page.context.set_offline(False)
                seq_is(page, MOVES)
                replay.append(time.perf_counter() - start)
            else:
                start = time.perf_counter()
                for i in range(1, MOVES + 1):
                    page.locator(END_TURN).click()
                    seq_is(page, i)
                baseline.append(time.perf_counter() - start)
            logged = list(MoveEvent.objects.filter(session=table).order_by("seq").values_list("seq", flat=True))
            assert logged == list(range(1, MOVES + 1)), logged
        print(
            f"\nrun {run + 1}: baseline (50 moves entered online) {baseline[-1]:.2f} s; "
            f"replay (50 offline moves after the network returns) {replay[-1]:.2f} s"
        )
    print(
        f"\n{MOVES} moves, {runs} runs. baseline median {statistics.median(baseline):.2f} s "
        f"(min {min(baseline):.2f}, max {max(baseline):.2f}); replay median {statistics.median(replay):.2f} s "
        f"(min {min(replay):.2f}, max {max(replay):.2f}); target: replay <= 5 s; "
        f"{'met' if max(replay) <= 5 else 'NOT met'} in every run; "
        f"load average {os.getloadavg()[0]:.2f}"
    )
