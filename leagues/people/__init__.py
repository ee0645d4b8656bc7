"""Accounts and players: signing up, guests and claims (players), the account page, and the player page's reads and
charts."""
