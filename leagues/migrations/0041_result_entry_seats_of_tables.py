"""A table's result kept no seats (issue 48 finding 6: the exports said every site table's player started last,
`seatOrder` 0): its entries get the table's seats, 1 first, as new results now do."""

from django.db import migrations

BATCH = 1000


def seats_from_tables(apps, schema_editor):
    ResultEntry = apps.get_model("leagues", "ResultEntry")
    Seat = apps.get_model("games", "Seat")
    waiting = (ResultEntry.objects.filter(seat__isnull=True, result__session__isnull=False)
               .values_list("pk", "result__session_id", "player_id").order_by("pk"))
    last = 0
    while True:
        rows = list(waiting.filter(pk__gt=last)[:BATCH])
        if not rows:
            return
        last = rows[-1][0]
        seats = {(session, player): position for session, player, position in Seat.objects.filter(
            session_id__in={session for _pk, session, _player in rows}).values_list("session_id", "player_id",
                                                                                   "position")}
        found = [ResultEntry(pk=pk, seat=seats[(session, player)] + 1) for pk, session, player in rows
                 if (session, player) in seats]
        ResultEntry.objects.bulk_update(found, ["seat"])


class Migration(migrations.Migration):

    dependencies = [
        ("leagues", "0040_club_export"),
        ("games", "0009_nights_seat_withdrawn"),
    ]

    operations = [migrations.RunPython(seats_from_tables, migrations.RunPython.noop)]
