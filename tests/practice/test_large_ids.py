"""An id too large for the database's integer column is no attempt or review: a 404, never a
500 (SQLite refuses to bind an integer of 2^63 or more)."""

import pytest

TOO_LARGE = 2**63


@pytest.mark.parametrize(
    "path",
    [
        f"/practice/attempts/{TOO_LARGE}/answer/",
        f"/practice/attempts/{TOO_LARGE}/report/",
        f"/practice/reviews/{TOO_LARGE}/rate/",
        f"/practice/reviews/{TOO_LARGE}/undo/",
        f"/practice/problems/{TOO_LARGE}/another/",
        f"/practice/problems/{TOO_LARGE}/hold/",
    ],
)
def test_it_answers_404_to_a_post_with_an_id_too_large(practising, path):
    response = practising.post(path, {"rating": "3", "action": "bury", "part-kv_total": "1 TB"})
    assert response.status_code == 404


@pytest.mark.parametrize(
    "path", [f"/practice/attempts/{TOO_LARGE}/", f"/practice/problems/{TOO_LARGE}/"]
)
def test_it_answers_404_to_a_page_with_an_id_too_large(practising, path):
    assert practising.get(path).status_code == 404


def test_it_still_serves_the_largest_id_the_column_holds(practising):
    largest = 2**63 - 1
    assert practising.post(f"/practice/reviews/{largest}/rate/", {"rating": "3"}).status_code == 404
    assert practising.post(f"/practice/attempts/{largest}/answer/", {}).status_code == 404
