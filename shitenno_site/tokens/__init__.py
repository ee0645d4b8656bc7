"""Personal access tokens (issue 48 finding 2): a person makes, names, limits and revokes the keys his apps use."""
