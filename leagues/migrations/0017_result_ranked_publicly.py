"""Issue 24: no single account moves a public ranking. A result counts in the site-wide game ratings only when at
least two different accounts signed it, each guest vouched for by someone other than its recorder (or by a manager
of the league's club): `Result.ranked_publicly`, set when it comes to count (leagues.common.access.result_signed_publicly).

The counted results already there get the flag from their sign-offs (the rule frozen below: a migration must not
follow the code), and every game scope is asked to be re-rated through the league jobs' outbox (the worker runs
the rows at start and the beat's sweep every minute), so the public ratings drop what one account put in.
"""

from django.db import migrations, models
from django.utils import timezone


def _signed_publicly(result, entries, sign_offs, managers) -> bool:
    accounts = set()
    for entry in entries:
        sign_off = sign_offs.get(entry.player_id)
        if sign_off is None or not sign_off.agreed or sign_off.by_id is None:
            return False
        signers = ({entry.player.user_id} if entry.player.user_id is not None
                   else ({entry.player.created_by_id} if entry.player.created_by_id else set()) | managers)
        if sign_off.by_id not in signers:
            return False
        if entry.player.user_id is None and sign_off.by_id == result.created_by_id and sign_off.by_id not in managers:
            return False
        accounts.add(sign_off.by_id)
    return len(accounts) >= 2


def flag_and_rerate(apps, schema_editor):
    Result = apps.get_model("leagues", "Result")
    Membership = apps.get_model("leagues", "Membership")
    LeagueJob = apps.get_model("leagues", "LeagueJob")
    managers_of = {}
    public = []
    for result in Result.objects.filter(status="counted").select_related("season__league").iterator():
        entries = list(result.entries.select_related("player"))
        sign_offs = {s.player_id: s for s in result.sign_offs.all()}
        managers = set()
        if result.season_id:
            club_id = result.season.league.club_id
            if club_id not in managers_of:
                managers_of[club_id] = set(Membership.objects.filter(
                    club_id=club_id, role__in=["owner", "admin"], player__user__isnull=False,
                ).values_list("player__user_id", flat=True))
            managers = managers_of[club_id]
        if _signed_publicly(result, entries, sign_offs, managers):
            public.append(result.pk)
    Result.objects.filter(pk__in=public).update(ranked_publicly=True)
    Rating = apps.get_model("leagues", "Rating")
    games = set(Result.objects.filter(status="counted").values_list("game", flat=True).distinct())
    games |= set(Rating.objects.filter(kind="game").values_list("key", flat=True).distinct())
    for game in sorted(games):
        row, created = LeagueJob.objects.get_or_create(
            job="rate_scope", target=f"game:{game}", defaults={"since": None, "marked_at": timezone.now()})
        if not created:
            row.since, row.generation, row.marked_at = None, row.generation + 1, timezone.now()
            row.save(update_fields=["since", "generation", "marked_at"])


class Migration(migrations.Migration):

    dependencies = [
        ('leagues', '0016_rating_history_partitions'),
    ]

    operations = [
        migrations.AddField(
            model_name='result',
            name='ranked_publicly',
            field=models.BooleanField(db_default=False, default=False, help_text='Counted and signed by at least two different accounts (access.result_signed_publicly): only then does it move the site-wide game ratings.'),
        ),
        migrations.RunPython(flag_and_rerate, migrations.RunPython.noop),
    ]
