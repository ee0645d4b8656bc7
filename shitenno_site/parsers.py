"""The API's JSON parser, in a module of its own: DRF imports it while it builds APIView, so it must not import
rest_framework.views (shitenno_site.api does)."""

from django.utils.translation import gettext as _
from rest_framework import exceptions, parsers

from shitenno_site import validation

MAX_JSON_DEPTH = 32


class StrictJSONParser(parsers.JSONParser):
    """DRF's JSON parser, refusing JSON nested deeper than MAX_JSON_DEPTH (5,000 levels overflowed the stack) and
    text holding a lone surrogate ("\\ud800" is valid JSON, but no encoder can write it: the database and the
    answer that echoes it, an unknown key's name say, failed with a 500), naming where it stands."""

    def parse(self, stream, media_type=None, parser_context=None):
        try:
            data = super().parse(stream, media_type, parser_context)
        except exceptions.ParseError as unreadable:
            # DRF's words are English whatever the reader's language: the site's own, with the decoder's place
            # ("Expecting value: line 1 column 1") after them (issue 48: a Dutch reader got it all in English)
            reason = str(unreadable.detail).removeprefix("JSON parse error - ")
            raise exceptions.ParseError(_("The body is not valid JSON: %(reason)s") % {"reason": reason}) from None
        except RecursionError:
            raise exceptions.ParseError(f"JSON parse error - nested more than {MAX_JSON_DEPTH} levels deep.") from None
        depth_problem = validation.json_problem(data, max_depth=MAX_JSON_DEPTH)
        if depth_problem and "deep" in depth_problem:
            raise exceptions.ParseError(f"JSON parse error - {depth_problem}")
        broken = validation.json_text_problem(data, rule=validation.surrogate_problem)
        if broken:
            raise exceptions.ParseError(broken)
        return data
