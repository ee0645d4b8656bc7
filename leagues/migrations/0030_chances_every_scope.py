"""Issue 50: the posterior is read in every scope now (the window's latest games, each player's rating at its start
as his prior), not only in scopes whose whole history fits in the window. Every scope already rated is asked to be
re-rated through the league jobs' outbox, as migration 0029 did, so a big scope gets its posterior soon after the
deploy; until then it reads its ratings, as before. No schema change; reversing does nothing."""

import importlib

from django.db import migrations

# the same step as 0029's: every rated scope's rate_scope job in the outbox (a migration's own copy would drift)
ask_every_scope_rated_again = importlib.import_module(
    "leagues.migrations.0029_chances_posterior").ask_every_scope_rated_again


class Migration(migrations.Migration):

    dependencies = [
        ("leagues", "0029_chances_posterior"),
    ]

    operations = [
        migrations.RunPython(ask_every_scope_rated_again, migrations.RunPython.noop),
    ]
