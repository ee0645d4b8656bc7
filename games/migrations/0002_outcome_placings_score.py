"""Stored outcomes name a placing's points "score" (the engine contract's Placing.score) instead of Shitennō's
"favour": renamed in place, so every reader (leagues' results, statistics, the API) reads one key."""

from django.db import migrations

BATCH = 500


def _rename(apps, old: str, new: str) -> None:
    TableSession = apps.get_model("games", "TableSession")
    changed = []
    for session in TableSession.objects.exclude(outcome=None).only("pk", "outcome").iterator(chunk_size=BATCH):
        placings = (session.outcome or {}).get("placings") or []
        if not any(old in placing for placing in placings):
            continue
        for placing in placings:
            if old in placing:
                placing[new] = placing.pop(old)
        changed.append(session)
        if len(changed) >= BATCH:
            TableSession.objects.bulk_update(changed, ["outcome"])
            changed = []
    TableSession.objects.bulk_update(changed, ["outcome"])


def favour_to_score(apps, schema_editor) -> None:
    _rename(apps, "favour", "score")


def score_to_favour(apps, schema_editor) -> None:
    _rename(apps, "score", "favour")


class Migration(migrations.Migration):
    dependencies = [("games", "0001_initial")]

    operations = [migrations.RunPython(favour_to_score, score_to_favour)]
