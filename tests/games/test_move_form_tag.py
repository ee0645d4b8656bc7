"""`{% move_form %}`: the form every move of every game's panel is entered in (games/templatetags/table_tags.py)."""

import pytest
from django.template import Context, Template, TemplateSyntaxError


def rendered(source: str, **context) -> str:
    return Template("{% load table_tags %}" + source).render(Context({"move_url": "/tables/abc/move/", **context}))


def test_it_posts_to_the_tables_move_address_with_the_hidden_fields_of_every_move():
    class Table:
        code, head_seq = "abc", 7

    html = rendered('{% move_form "place" %}<button>Place</button>{% endmove_form %}', session=Table(), key="k1")
    assert html.startswith(
        '<form method="post" action="/tables/abc/move/" data-hx-post="/tables/abc/move/" '
        'data-hx-target="#table-body" data-hx-swap="outerHTML" class="stack" data-move="place">'
    )
    assert '<input type="hidden" name="seq" value="7">' in html and 'name="key" value="k1"' in html
    assert '<input type="hidden" name="type" value="place">' in html
    assert html.endswith("<button>Place</button></form>")


def test_a_form_whose_buttons_name_the_move_sends_no_type_of_its_own():
    html = rendered('{% move_form "accept" kind="" %}<button name="type" value="accept">Yes</button>{% endmove_form %}')
    assert 'data-move="accept"' in html and '<input type="hidden" name="type"' not in html


def test_the_move_is_escaped_and_a_tag_without_it_is_refused():
    assert 'data-move="&lt;b&gt;"' in rendered("{% move_form bad %}{% endmove_form %}", bad="<b>")
    with pytest.raises(TemplateSyntaxError):
        rendered("{% move_form %}{% endmove_form %}")
