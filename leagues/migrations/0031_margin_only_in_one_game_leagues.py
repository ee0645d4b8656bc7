"""Issue 50 ("like with like"): average score margin breaks ties only in a league of one game (leagues.common
.tie_breaks). Seasons stored before that rule, in leagues of more games, may still break ties by margin: it is
dropped from their rules here, as a league that gains a second game drops it (league_edits), each change in the
club's audit trail (no user: the site's own change), and a season with counted results is asked to re-compute its
table through the league jobs' outbox. Reversing puts nothing back (the old order is in the audit trail)."""

from django.db import migrations
from django.utils import timezone


def drop_margin_where_games_differ(apps, schema_editor) -> None:
    League, Season = apps.get_model("leagues", "League"), apps.get_model("leagues", "Season")
    AuditEntry, LeagueJob = apps.get_model("leagues", "AuditEntry"), apps.get_model("leagues", "LeagueJob")
    Result = apps.get_model("leagues", "Result")
    for league in League.objects.order_by("pk"):
        if len(set(league.games or [])) < 2:
            continue
        for season in Season.objects.filter(league=league).order_by("pk"):
            names = season.tie_breakers if isinstance(season.tie_breakers, list) else [season.tie_breakers]
            if "margin" not in names:
                continue
            kept = [name for name in names if name != "margin"]
            kept = kept if "points" in kept else ["points", *kept]
            before, season.tie_breakers = names, kept
            season.save(update_fields=["tie_breakers"])
            AuditEntry.objects.create(club_id=league.club_id, action="season.update", object_type="leagues.season",
                                      object_id=season.pk, details={
                                          "before": {"tie_breakers": before}, "after": {"tie_breakers": kept},
                                          "why": "average score margin compares one game's scores only (issue 50)"})
            if Result.objects.filter(season=season, status="counted").exists():
                row, created = LeagueJob.objects.get_or_create(
                    job="compute_standings", target=str(season.pk),
                    defaults={"since": None, "marked_at": timezone.now()})
                if not created:
                    row.generation, row.marked_at = row.generation + 1, timezone.now()
                    row.save(update_fields=["generation", "marked_at"])


class Migration(migrations.Migration):

    dependencies = [
        ("leagues", "0030_chances_every_scope"),
    ]

    operations = [
        migrations.RunPython(drop_margin_where_games_differ, migrations.RunPython.noop),
    ]
