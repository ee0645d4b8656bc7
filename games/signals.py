"""What a table tells the apps that build on games (leagues: results, ratings, the audit trail), without games
importing them: the dependency runs one way, leagues -> games (docs/architecture.md).

Django signals sent with `send()` inside the writer's transaction, so a receiver's writes commit or roll back
with the move that caused them: a finished table's result exists the moment its last move is answered, and no
broker outage can lose it (the jobs that follow a result go through leagues' outbox, in the same transaction).
A receiver may refuse the change by raising (a result that already counts refuses the undo that would reopen its
table: 409), and the move is not written.
"""

from django.dispatch import Signal

# A table has just finished (its last move, or a final count saved): sent with `session`, the row as written.
table_finished = Signal()

# A finished table is about to be reopened by an undo; raise to refuse. Sent with `session` and `user`.
table_reopening = Signal()

# A move was taken back: sent with `session`, `user`, `event` (the undo entry) and `undone` (the move).
move_undone = Signal()
