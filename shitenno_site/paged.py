"""A view whose GET is a list paged as every list, beside its other methods (issue 46 finding 6: lists that grew
with a club's or a player's history answered whole). Its own module: shitenno_site.api is where DRF's settings find
the pagination class, and DRF's generic views import those settings, so the view cannot live there."""

from rest_framework.generics import GenericAPIView
from rest_framework.response import Response


class PagedListView(GenericAPIView):
    """GET answers one page (`limit`, `offset`: `{"count", "next", "previous", "results"}`) of rows serialized by
    `serializer_class`, which the schema pages as it does a ListAPIView's; other methods are the view's own."""

    def paged(self, rows) -> Response:
        page = self.paginate_queryset(rows)
        return self.get_paginated_response(self.get_serializer(page, many=True).data)
