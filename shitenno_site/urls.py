from django.contrib import admin
from django.contrib.sitemaps.views import sitemap
from django.urls import include, path
from django.views.decorators.http import require_safe
from drf_spectacular.views import SpectacularSwaggerSplitView

from . import health, problems, public, pwa, views
from .schema_view import SchemaView

handler400 = "shitenno_site.views.bad_request"
handler404 = "shitenno_site.public.page_not_found"
handler500 = "shitenno_site.public.server_error"

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", health.healthz, name="healthz"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("robots.txt", public.robots_txt, name="robots_txt"),
    path("sitemap.xml", require_safe(sitemap), {"sitemaps": public.SITEMAPS}, name="sitemap"),
    path("manifest.webmanifest", pwa.manifest, name="manifest"),
    path("sw.js", pwa.service_worker, name="service_worker"),
    path("admin/", admin.site.urls),
    path("accounts/notifications/", include("leagues.notifications.urls")),  # issue 39
    path("accounts/", include("leagues.account_urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("leagues.urls")),
    path("", include("games.urls")),
    path("api/schema/", SchemaView.as_view(), name="api-schema"),
    # The split view loads its start-up script from a URL (no inline script); its page's style sheet is the site's
    # (templates/drf_spectacular/swagger_ui.html), so it needs no CSP allowance.
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="api-schema"), name="api-docs"),
    path("api/problems/", problems.kinds_document, name="api-problems"),
    path("api/problems/<slug:kind>/", problems.kinds_document, name="api-problem"),
    path("api/", include("leagues.api.urls")),
    path("api/", include("games.api.urls")),
]
