"""What a browser would post for a page's form left as it is: each field's value as the page set it (the checked
boxes and radios, each select's selected option or else its first), read with the standard library's parser."""

from __future__ import annotations

from html.parser import HTMLParser


class _FormReader(HTMLParser):
    def __init__(self, form_class: str) -> None:
        super().__init__()
        self.form_class, self.inside, self.data = form_class, False, {}
        self.select: str | None = None
        self.textarea: str | None = None
        self.first_option: str | None = None

    def handle_starttag(self, tag: str, attrs) -> None:
        a = dict(attrs)
        if tag == "form":
            self.inside = self.form_class in (a.get("class") or "").split()
        if not self.inside or "disabled" in a:
            return
        name = a.get("name")
        if tag == "input" and name:
            kind = a.get("type", "text")
            if kind in ("checkbox", "radio"):
                if "checked" in a:
                    self.data[name] = a.get("value", "on")
            elif kind not in ("submit", "button"):
                self.data[name] = a.get("value", "")
        elif tag == "select":
            self.select, self.first_option = name, None
        elif tag == "option" and self.select:
            value = a.get("value", "")
            if self.first_option is None:
                self.first_option = value
            if "selected" in a:
                self.data[self.select] = value
        elif tag == "textarea" and name:
            self.textarea = name
            self.data[name] = ""

    def handle_data(self, data: str) -> None:
        if self.textarea:
            self.data[self.textarea] += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "select" and self.select:
            self.data.setdefault(self.select, self.first_option or "")
            self.select = None
        elif tag == "textarea":
            self.textarea = None
        elif tag == "form":
            self.inside = False


def form_as_left(html: str, form_class: str) -> dict[str, str]:
    """The fields of the page's <form class="… form_class …"> as a browser would send them untouched."""
    reader = _FormReader(form_class)
    reader.feed(html)
    return reader.data
