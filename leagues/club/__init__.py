"""Clubs and what a club's managers run: clubs, memberships and invites (clubs), leagues and seasons (seasons,
league_edits) and their pages."""
