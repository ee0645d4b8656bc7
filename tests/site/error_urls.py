"""The site's URLs plus one view that fails, for the 500 page's test (the handlers come with the star import)."""

from django.urls import path

from shitenno_site.urls import *  # noqa: F403 (urlpatterns and the handlers)
from shitenno_site.urls import urlpatterns as site_urlpatterns


def boom(request):
    raise RuntimeError("a bug")


urlpatterns = [path("boom/", boom), path("api/boom/", boom), *site_urlpatterns]
