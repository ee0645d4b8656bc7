from django.http import HttpRequest, JsonResponse
from django.urls import path, re_path
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt

from shitenno_site.problems import problem_response

from . import views

urlpatterns = [
    path("games/", views.Games.as_view(), name="api-games"),
    path("tables/", views.TableList.as_view(), name="api-tables"),
    path("tables/<str:code>/", views.TableDetail.as_view(), name="api-table"),
    path("tables/<str:code>/moves/", views.MoveList.as_view(), name="api-moves"),
    path("tables/<str:code>/undo/", views.Undo.as_view(), name="api-undo"),
    path("tables/<str:code>/score/", views.TableScore.as_view(), name="api-score"),
    path("final-count/", views.FinalCount.as_view(), name="api-final-count"),
]


@csrf_exempt  # it writes nothing; a POST to a wrong address is a 404, not a CSRF failure
def not_found(request: HttpRequest, rest: str) -> JsonResponse:
    return problem_response(404, _("There is no API address here: /api/schema/ lists them."))


# Included last under api/: any other address there (a malformed id, a typo) is a JSON 404, not an HTML page.
# Only addresses ending in a slash, so a missing slash still gets CommonMiddleware's redirect.
urlpatterns += [re_path(r"^(?P<rest>(?:[\s\S]*/)?)$", not_found, name="api-not-found")]
