"""The model fields the league models share."""

from fractions import Fraction

from django.core.exceptions import ValidationError
from django.db import models


class FractionField(models.CharField):
    """An exact rational number (a Fraction in Python), stored as its text: "1725", "-7/2", "200/3". Season
    points are sums of shares such as the percent scheme's 200/3, which no float or decimal column holds
    exactly; the table is ordered by the rows' sort keys, never by this column."""

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("max_length", 100)
        super().__init__(*args, **kwargs)

    def deconstruct(self) -> tuple:
        """The path the migrations have always named (`leagues.models` re-exports it), so moving the class into
        this module writes no migration."""
        name, _path, args, kwargs = super().deconstruct()
        return name, "leagues.models.FractionField", args, kwargs

    def from_db_value(self, value, expression, connection) -> Fraction | None:
        return None if value is None else Fraction(value)

    def to_python(self, value) -> Fraction | None:
        if value is None or isinstance(value, Fraction):
            return value
        try:
            return Fraction(value)
        except (TypeError, ValueError, ZeroDivisionError) as error:
            raise ValidationError("Give an exact number such as 12, 2.5 or 200/3.") from error

    def get_prep_value(self, value) -> str | None:
        value = self.to_python(value)
        return None if value is None else str(value)
