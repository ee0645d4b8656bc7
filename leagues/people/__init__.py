"""Accounts and players: signing up, guests and claims (players), the players' pages and signing up (views), the
account page (account_views), and the player page's reads and charts."""
