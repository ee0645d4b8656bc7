"""Ratings: the maths (openskill, maths), what a person reads (display), the stored ratings and their history (store,
partitions), win chances (chances) and the ratings' pages."""
