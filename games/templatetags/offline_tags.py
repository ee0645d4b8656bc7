"""`{% never_kept %}`: a page showing a secret (an invite or claim link, a token in its address, a club manager's
actions) says so where it shows it, and is then answered with `Cache-Control: no-store`, which the service worker
honours: no copy of it is kept on the phone (shitenno_site.offline, docs/offline.md)."""

from django import template

register = template.Library()


@register.simple_tag(takes_context=True)
def never_kept(context: template.Context) -> str:
    request = context.get("request")
    if request is not None:
        request.offline_never_kept = True
    return ""
