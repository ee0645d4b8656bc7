"""Bringing a club's history in from BG Stats and BoardGameGeek, and taking it out again (issue 27).

`formats` reads the files (pure Python, no Django), `plan` decides what an import would do (pure Python),
`service` writes one plan in one transaction, `export` writes the club's results back in both formats.
"""
