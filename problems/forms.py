from collections.abc import Iterable
from typing import Any, cast

from django import forms
from django.core.files.uploadedfile import UploadedFile
from django.core.validators import RegexValidator

from problems.authoring import (
    FIRST_AUTHORED_NUMBER,
    MAX_IMPORT_BYTES,
    MAX_VALIDATION_SEEDS,
    MIN_PUBLISH_SEEDS,
)
from problems.engine.schema import DEFAULT_EXPECTED_MINUTES, SLUG
from problems.models import ScenarioVersion
from problems.variants import SEED_LIMIT


class ListField(forms.CharField):
    """A list of texts edited in a textarea, one item per line."""

    widget = forms.Textarea(attrs={"rows": 4})

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, (list, tuple)):
            return "\n".join(value)
        return value

    def to_python(self, value: Any) -> list[str]:  # type: ignore[override]  # a list, not a str
        text = super().to_python(value) or ""
        return [line.strip() for line in text.splitlines() if line.strip()]


class ProblemForm(forms.Form):
    number = forms.IntegerField(min_value=FIRST_AUTHORED_NUMBER, max_value=999)
    page = forms.IntegerField(
        min_value=1, max_value=10, help_text="The course page (1 to 10) it belongs to."
    )
    title = forms.CharField(max_length=200)
    concepts = forms.CharField(widget=forms.Textarea(attrs={"rows": 4}), required=False)
    tradeoffs = ListField(required=False, help_text="One trade-off per line.")
    model_answer = forms.CharField(widget=forms.Textarea(attrs={"rows": 5}), required=False)
    self_check = ListField(required=False, help_text="One question per line.")
    expected_minutes = forms.IntegerField(
        min_value=1, max_value=240, initial=DEFAULT_EXPECTED_MINUTES
    )

    def __init__(self, *args: Any, editing: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if editing:
            # Shown, not edited; a new field, because a field's validators are built with it (a
            # built-in problem's number, 1 to 25, would fail the new-problem minimum).
            self.fields["number"] = forms.IntegerField(min_value=1, max_value=999, disabled=True)


class ScenarioForm(forms.Form):
    key = forms.CharField(
        max_length=60,
        validators=[
            RegexValidator(SLUG, "Lower-case letters and digits, joined by - or _ (a slug).")
        ],
        help_text="Identifies the scenario within its problem; it cannot change later.",
    )
    title = forms.CharField(max_length=200)
    note = forms.CharField(
        max_length=300, required=False, help_text="What this version changes, for the history."
    )
    body = forms.CharField(
        label="Definition (YAML)",
        required=False,
        max_length=MAX_IMPORT_BYTES,
        strip=False,
        widget=forms.Textarea(attrs={"rows": 30, "spellcheck": "false", "class": "yaml"}),
    )

    def __init__(self, *args: Any, key_fixed: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if key_fixed:
            self.fields["key"].disabled = True


class ValidateForm(forms.Form):
    seeds = forms.IntegerField(
        min_value=MIN_PUBLISH_SEEDS, max_value=MAX_VALIDATION_SEEDS, initial=MIN_PUBLISH_SEEDS
    )


class PublishForm(forms.Form):
    corrects = forms.TypedMultipleChoiceField(coerce=int, required=False, choices=())

    def __init__(
        self, *args: Any, candidates: Iterable[ScenarioVersion] = (), **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        corrects = cast(forms.TypedMultipleChoiceField, self.fields["corrects"])
        corrects.choices = [(v.pk, f"v{v.number}") for v in candidates]


class SeedForm(forms.Form):
    seed = forms.IntegerField(min_value=0, max_value=SEED_LIMIT - 1, required=False)


class ImportForm(forms.Form):
    text = forms.CharField(
        label="Paste YAML",
        required=False,
        strip=False,
        max_length=MAX_IMPORT_BYTES,
        widget=forms.Textarea(attrs={"rows": 16, "spellcheck": "false", "class": "yaml"}),
    )
    file = forms.FileField(label="or upload a .yaml file", required=False)
    problem = forms.IntegerField(
        label="Problem number (for a single scenario)",
        required=False,
        min_value=1,
        max_value=999,
    )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        text: str | None = cleaned.get("text")
        upload: UploadedFile | None = cleaned.get("file")
        if bool(text and text.strip()) == bool(upload):
            raise forms.ValidationError("Paste YAML or upload a file (one of the two).")
        if upload:
            if (upload.size or 0) > MAX_IMPORT_BYTES:
                raise forms.ValidationError(
                    f"The file is larger than {MAX_IMPORT_BYTES // 1024} KiB."
                )
            cleaned["document"] = upload.read(MAX_IMPORT_BYTES + 1)
        else:
            cleaned["document"] = text
        return cleaned
