"""URLs for the load benchmark only (bench/load.py sets ROOT_URLCONF=baseline_urls in its gunicorn's env):
the site's URLs plus a minimal DRF endpoint that does one locked row update and one insert, the floor
against which a move post is compared. Never part of the product's URLs."""

from django.db import transaction
from django.urls import path
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import APIView

from games.models import MoveEvent, TableSession
from shitenno_site.urls import urlpatterns as site_urlpatterns


class Baseline(APIView):
    """Lock the table row, bump its head_seq, append one log row: what any move post must at least do."""

    def post(self, request, code: str):
        with transaction.atomic():
            session = TableSession.objects.select_for_update().only("pk", "head_seq").get(code=code)
            session.head_seq += 1
            session.save(update_fields=["head_seq"])
            MoveEvent.objects.create(
                session=session, seq=session.head_seq, payload=request.data.get("move", {}), entered_by=request.user
            )
        return Response({"seq": session.head_seq}, status=status.HTTP_201_CREATED)


urlpatterns = [path("bench/baseline/<str:code>/", Baseline.as_view()), *site_urlpatterns]
