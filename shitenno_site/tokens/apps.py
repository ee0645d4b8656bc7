from django.apps import AppConfig


class TokensConfig(AppConfig):
    name = "shitenno_site.tokens"
    label = "tokens"
    verbose_name = "Access tokens"
