"""Catalogue sheets: a learner-facing page per GPU, model or number format, listing the figures
a question may take as known (its `assumed:` declaration) with their sources."""

from dataclasses import fields, is_dataclass
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from problems.engine.catalogue import Catalogue, default_catalogue
from problems.engine.figures import figure_label, figure_text

KIND_TITLES = {"gpu": "GPU", "model": "Model", "format": "Number format"}
_HIDDEN = {"key", "name", "source"}


def _get_entry(kind: str, key: str) -> tuple[Catalogue, object]:
    catalogue = default_catalogue()
    entry = catalogue.entries.get(kind, {}).get(key)
    if entry is None:
        raise Http404(f"No {kind} '{key}' in the catalogue.")
    return catalogue, entry


def _figures(catalogue: Catalogue, entry: object, highlighted: set[str]) -> list[dict[str, Any]]:
    readable = catalogue.fields.get(type(entry), frozenset())
    names = [f.name for f in fields(entry)] if is_dataclass(entry) else sorted(readable)
    rows = []
    for name in names:
        if name in _HIDDEN or name not in readable:
            continue
        rows.append(
            {
                "name": name,
                "label": figure_label(name),
                "value": figure_text(catalogue, entry, name),
                "highlighted": name in highlighted,
            }
        )
    return rows


@login_required
@require_GET
def sheet(request: HttpRequest, kind: str, key: str) -> HttpResponse:
    catalogue, entry = _get_entry(kind, key)
    highlighted = set(filter(None, request.GET.get("fields", "").split(",")))
    context = {
        "kind_title": KIND_TITLES.get(kind, kind),
        "entry": entry,
        "figures": _figures(catalogue, entry, highlighted),
        "source": getattr(entry, "source", ""),
    }
    return render(request, "problems/sheet.html", context)
