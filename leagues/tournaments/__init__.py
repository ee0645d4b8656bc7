"""Tournament days (issue 51): Swiss rounds of pods by standings, then a cut. `pairing` is the pure pairing
contract (no Django), so `manage.py swiss`, the site and `bench/swiss.py` get one answer from one function."""
