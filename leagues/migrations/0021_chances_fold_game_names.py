"""Issue 40: one name for each game. Results entered with a registered game's name ("Shitennō", "SHITENNO") went to
a rating scope of their own, apart from the game's slug; from now on every way in stores the slug
(games.registry.one_name). This folds what is already stored: each result whose game names a registered game, but
is not its slug, takes the slug, and so does each league's list of games.

The scopes that changed are asked to be re-rated through the league jobs' outbox (as migration 0017 does), both the
slug's (it gains the results) and the old name's (it loses them all, and with them its ratings); the seasons that
hold such results get their tables recomputed, and their players their tallies (kept per game).

Unlike the other data migrations, this one reads the registry as it is when it runs rather than a frozen copy:
the registered games are the plug-ins (shared code never names a game), and folding by the list of the day is what
is wanted. Reversing leaves the slugs (the names they replaced are not kept)."""

from django.db import migrations
from django.utils import timezone


def _ask(LeagueJob, job: str, target: str) -> None:
    row, created = LeagueJob.objects.get_or_create(
        job=job, target=target, defaults={"since": None, "marked_at": timezone.now()})
    if not created:
        row.since, row.generation, row.marked_at = None, row.generation + 1, timezone.now()
        row.save(update_fields=["since", "generation", "marked_at"])


def fold_game_names(apps, schema_editor) -> None:
    from games.registry import one_name, registered_slug

    Result, ResultEntry, League, LeagueJob = (apps.get_model("leagues", name)
                                              for name in ("Result", "ResultEntry", "League", "LeagueJob"))
    scopes, seasons, players = set(), set(), set()
    for game in sorted(set(Result.objects.values_list("game", flat=True))):
        slug = registered_slug(game)
        if slug is None or slug == game:
            continue
        named = Result.objects.filter(game=game)
        seasons |= set(named.exclude(season=None).values_list("season_id", flat=True))
        players |= set(ResultEntry.objects.filter(result__game=game).values_list("player_id", flat=True))
        named.update(game=slug)
        scopes |= {game, slug}
    for league in League.objects.all():
        folded = list(dict.fromkeys(one_name(g) for g in league.games if g.strip()))
        if folded != league.games:
            league.games = folded
            league.save(update_fields=["games"])
    for key in sorted(scopes):
        _ask(LeagueJob, "rate_scope", f"game:{key}")
    for season_id in sorted(seasons):
        _ask(LeagueJob, "compute_standings", str(season_id))
    for player_id in sorted(players):
        _ask(LeagueJob, "tally_player", str(player_id))


class Migration(migrations.Migration):

    dependencies = [
        ("leagues", "0020_tally_per_game"),
    ]

    operations = [
        migrations.RunPython(fold_game_names, migrations.RunPython.noop),
    ]
