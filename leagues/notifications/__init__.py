"""Notifications (issue 39): "your table", "sign-off waiting", a dispute and the night's standings, by web push
and an e-mail digest, each person choosing per kind. See docs/notifications.md."""
