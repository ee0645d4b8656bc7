"""Issue 40: the win chances read each scope's posterior skills (leagues.rating.posterior), which the rating job
stores on each rating (chance_mean, chance_sd) and on the scope's fit (skill_sd).

Every scope already rated is asked to be re-rated through the league jobs' outbox (as migrations 0017 and 0021 do),
so its posterior is fitted soon after the deploy rather than at its next result or the nightly repair; until then
its chances are read from the ratings, as before. Reversing drops the columns (the chances then read the ratings)."""

from django.db import migrations, models
from django.utils import timezone


def ask_every_scope_rated_again(apps, schema_editor) -> None:
    RatingFit, LeagueJob = apps.get_model("leagues", "RatingFit"), apps.get_model("leagues", "LeagueJob")
    for kind, key in RatingFit.objects.order_by("kind", "key").values_list("kind", "key"):
        row, created = LeagueJob.objects.get_or_create(
            job="rate_scope", target=f"{kind}:{key}", defaults={"since": None, "marked_at": timezone.now()})
        if not created:
            row.since, row.generation, row.marked_at = None, row.generation + 1, timezone.now()
            row.save(update_fields=["since", "generation", "marked_at"])


class Migration(migrations.Migration):

    dependencies = [
        ("leagues", "0028_result_waiting_index"),
    ]

    operations = [
        migrations.AddField(
            model_name="rating",
            name="chance_mean",
            field=models.FloatField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="rating",
            name="chance_sd",
            field=models.FloatField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="ratingfit",
            name="skill_sd",
            field=models.FloatField(blank=True, null=True),
        ),
        migrations.RunPython(ask_every_scope_rated_again, migrations.RunPython.noop),
    ]
