"""Saying an engine's Phrases (move descriptions, refusals, tie-breaks) in the reader's language.

Engines speak English and attach a `code` with `params` to what they say (games.engines.base.Phrase,
MoveError). Each game plug-in owns a `Catalogue` (games/plugins/<slug>/phrases.py): every code maps to a
gettext sentence with the same named parameters, and parameters that are game words (a bonus tile, a season,
a deck) are said through the catalogue's `words`. A code the catalogue lacks is said in the engine's English,
so a stored log entry never breaks a page; the tests prove every code an engine can produce is catalogued.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any

from django.utils.translation import gettext, gettext_lazy

from games.engines.base import MoveError, Phrase

logger = logging.getLogger(__name__)

# Said the same way for every game: the log's undo entries; "site.sentences" and "site.list" join their
# "parts" (Phrases) one after the other, or as a list ("a, b and c").
SHARED: dict[str, Any] = {
    "site.undo": gettext_lazy("Undo: %(move)s"),
    "site.sentences": "%(parts)s",
    "site.list": "%(parts)s",
}

Word = Callable[[Any, dict | None], str]  # (value, state or None) -> the value in the reader's words


def in_words(table: Mapping[Any, Any]) -> Word:
    """A parameter said through a table of translated words (a bonus tile, a deck): unknown values as they are."""

    def say(value: Any, state: dict | None) -> str:
        return str(table.get(value, value)) if isinstance(value, str | int) else str(value)

    return say


def ordinal(value: Any, state: dict | None = None) -> str:
    """1 -> "1st" in English, "1e" in Dutch (the catalogue's own words for the suffix)."""
    if not isinstance(value, int):
        return str(value)
    if value in (1, 2, 3):
        return (gettext("1st"), gettext("2nd"), gettext("3rd"))[value - 1]
    return gettext("%(n)sth") % {"n": value}


def word_list(items: list[str]) -> str:
    """["a", "b", "c"] -> "a, b and c" in the reader's language."""
    if not items:
        return gettext("nothing")
    if len(items) == 1:
        return items[0]
    return gettext("%(items)s and %(last)s") % {"items": ", ".join(items[:-1]), "last": items[-1]}


class Plural:
    """A sentence whose words follow a count ("1 Army", "2 Armies"): an ngettext_lazy(singular, plural, "n")
    (so that makemessages finds both), said with the phrase's own count, not the count in words."""

    def __init__(self, sentence: Any, count: str = "n") -> None:
        self.sentence, self.count = sentence, count

    def __str__(self) -> str:
        """The untranslated plural, for whoever reads which parameters the sentence names (the Dutch test)."""
        return str(self.sentence._kw["plural"])  # ngettext_lazy keeps its arguments here

    def say(self, said: dict, raw: Mapping[str, Any]) -> str:
        n = raw.get(self.count)
        return str(self.sentence % {**said, self.count: n if isinstance(n, int) else said.get(self.count)})


class Catalogue:
    """One game's sentences by code, and how to say its parameters."""

    def __init__(
        self,
        sentences: Mapping[str, Any],
        words: Mapping[str, Word] | None = None,
        names: frozenset[str] = frozenset(),
        and_lists: frozenset[str] = frozenset(),
    ) -> None:
        self.sentences = {**SHARED, **sentences}
        self.words = dict(words or {})
        # The game's list parameters said "a, b and c" (as its engine's English does); other lists "a, b, c". The
        # game's own: shared code names no game's words (issue 45).
        self.and_lists = and_lists
        # Codes whose words are names or numbers, said alike in every language (a card, a card and its value, a list).
        self.names = names | {code for code in SHARED if code != "site.undo"}

    def __contains__(self, code: str) -> bool:
        return code in self.sentences

    def say(self, phrase: Any, state: dict | None = None) -> str | None:
        """A stored phrase ({"code", "params"}) in the reader's language, or None when a code is unknown."""
        if not isinstance(phrase, dict) or phrase.get("code") not in self.sentences:
            return None
        if phrase["code"] == "site.sentences":
            parts = (phrase.get("params") or {}).get("parts", [])
            parts = [self._param("parts", part, state) for part in (parts if isinstance(parts, list) else [parts])]
            return None if None in parts else " ".join(parts)
        params = {name: self._param(name, value, state) for name, value in (phrase.get("params") or {}).items()}
        if any(value is None for value in params.values()):
            return None
        sentence = self.sentences[phrase["code"]]
        try:
            if isinstance(sentence, Plural):
                return sentence.say(params, phrase.get("params") or {})
            return str(sentence) % params if params else str(sentence).replace("%%", "%")
        except (KeyError, TypeError, ValueError):
            logger.warning("The sentence of %s does not fit its parameters %s", phrase["code"], sorted(params))
            return None

    def say_phrase(self, phrase: Any, state: dict | None = None) -> str | None:
        """An engine's Phrase (or plain English words) in the reader's language, or None if it cannot be said."""
        if not isinstance(phrase, Phrase):
            return None
        return self.say(phrase.to_json(), state)

    def _param(self, name: str, value: Any, state: dict | None) -> str | None:
        if isinstance(value, dict) and "code" in value:
            return self.say(value, state)
        if isinstance(value, list):
            said = [self._param(name, item, state) for item in value]
            words = [word for word in said if word is not None]
            if len(words) < len(said):
                return None
            return word_list(words) if name in self.and_lists else ", ".join(words)
        if name in self.words:
            return self.words[name](value, state)
        return str(value)


EMPTY = Catalogue({})


def say_phrase(catalogue: Catalogue, phrase: Any, english: str, state: dict | None = None) -> str:
    """A stored phrase in the reader's language; the stored English when the catalogue cannot say it."""
    return catalogue.say(phrase, state) or english


def say_error(catalogue: Catalogue, error: MoveError, state: dict | None = None) -> str:
    """A refused move's reason in the reader's language (the engine's English for a code not catalogued; the
    site's own refusals are gettext sentences already)."""
    if not error.code:
        return error.message
    return catalogue.say({"code": error.code, "params": error.params}, state) or error.message
