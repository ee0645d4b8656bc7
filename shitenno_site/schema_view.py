"""The schema's own view. Its own module: drf_spectacular.views reads DRF's settings, which name
shitenno_site.schema's AutoSchema, so the view cannot live there."""

from urllib.parse import quote

from django.utils.text import slugify
from drf_spectacular.views import SpectacularAPIView


class SchemaView(SpectacularAPIView):
    """The schema's download under an ASCII file name (issue 48 finding 3): the title's "ō" made Django encode
    the whole Content-Disposition as RFC 2047 (`=?utf-8?q?...?=`), which `curl -OJ` and browsers do not read.
    The plain name is given as `filename`, the title itself as RFC 6266's `filename*`."""

    def _get_schema_response(self, request):  # noqa: ANN202 (DRF's Response)
        response = super()._get_schema_response(request)
        name = self._get_filename(request, self.api_version or request.version)
        stem, _, suffix = name.rpartition(".")
        plain = f"{slugify(stem) or 'schema'}.{suffix}"
        response["Content-Disposition"] = f"inline; filename=\"{plain}\"; filename*=UTF-8''{quote(name)}"
        return response
