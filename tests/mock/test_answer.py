import threading
from datetime import timedelta
from html import unescape

import pytest
from django.utils import timezone

from problems.models import PartAnswer
from tests.mock.helpers import HX, answer, answer_url, move_deadline, start, variants_of
from trainer.mock import services


def _first_part(mock):
    item, variant = variants_of(mock)[0]
    return item, variant, variant.parts[0].key


def test_it_records_an_answer_and_says_only_that(mocking):
    mock = start(mocking)
    item, variant, key = _first_part(mock)
    typed = f"{variant.answer(key) * 3:.6g} {variant.parts[0].unit}"
    response = answer(mocking, mock, 1, key, typed, headers=HX)
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith(f'<div class="part" id="part-{key}">')
    assert f"Recorded: <strong>{typed}</strong>" in html
    assert variant.key_text(key) not in html and "orrect" not in html
    stored = PartAnswer.objects.get()
    assert stored.attempt == item.attempt and stored.text == typed
    item.attempt.refresh_from_db()
    assert item.attempt.submitted_at is None


def test_it_shows_how_a_recorded_answer_was_read(mocking):
    mock = start(mocking)
    item, variant, _ = _first_part(mock)
    # kv_total is asked in TB; typed in GB it is read, and shown, in TB.
    gigabytes = variant.answer("kv_total") * 1000 * 1.5
    response = answer(mocking, mock, 1, "kv_total", f"{gigabytes:.6g} GB", headers=HX)
    read_as = variant.value_text("kv_total", variant.answer("kv_total") * 1.5)
    assert f"(read as {read_as})" in response.content.decode()
    page = mocking.get(f"/mock/{mock.pk}/problems/1/").content.decode()
    assert f"Recorded: <strong>{gigabytes:.6g} GB</strong> (read as {read_as})" in page


def test_it_updates_the_problem_tabs_out_of_band(wide_bank, mocking):
    mock = start(mocking)
    item, variant, key = _first_part(mock)
    html = answer(mocking, mock, 1, key, "3", headers=HX).content.decode()
    nav = html[html.index('<nav class="mock-nav"') :]
    assert 'id="mock-nav"' in nav and 'hx-swap-oob="true"' in nav
    assert f'<span class="muted">1/{len(variant.parts)}</span>' in nav
    assert nav.count("<a href=") == mock.items.count()
    # A refused answer changes no count: no tabs are sent.
    again = answer(mocking, mock, 1, key, "4", headers=HX).content.decode()
    assert "mock-nav" not in again


def test_it_records_a_part_once(mocking):
    mock = start(mocking)
    _, variant, key = _first_part(mock)
    answer(mocking, mock, 1, key, variant.key_text(key), headers=HX)
    response = answer(mocking, mock, 1, key, "1 KiB", headers=HX)
    assert "this second answer was not recorded" in response.content.decode()
    assert PartAnswer.objects.get().text == variant.key_text(key)


def test_it_shows_a_parse_error_inline_and_records_nothing(mocking):
    mock = start(mocking)
    _, _, key = _first_part(mock)
    html = answer(mocking, mock, 1, key, "3.2 ms", headers=HX).content.decode()
    assert "is a time, but this part asks for an amount of data" in html
    assert "Nothing was recorded" in html and 'aria-invalid="true"' in html
    assert 'value="3.2 ms"' in html
    assert not PartAnswer.objects.exists()
    # It cost nothing: the part can still be answered.
    answer(mocking, mock, 1, key, "320 KiB", headers=HX)
    assert PartAnswer.objects.get().text == "320 KiB"


def test_it_points_out_a_number_right_in_another_unit_and_records_nothing(mocking):
    mock = start(mocking)
    _, variant, _ = _first_part(mock)
    in_bytes = f"{variant.answer('kv_total') * 1e12:.6g}"  # kv_total is asked in TB
    html = unescape(answer(mocking, mock, 1, "kv_total", in_bytes, headers=HX).content.decode())
    read_as = f"'{in_bytes}' is read in TB, the unit of this part, but it looks like it is in B"
    assert read_as in html
    assert "(this cost you no attempt)" in html and "Nothing was recorded" in html
    assert not PartAnswer.objects.exists()
    # It cost nothing: the part is recorded once the unit is written.
    answer(mocking, mock, 1, "kv_total", f"{in_bytes} B", headers=HX)
    assert PartAnswer.objects.get().text == f"{in_bytes} B"


def test_it_shows_a_parse_error_in_the_page_without_javascript(mocking):
    mock = start(mocking)
    _, variant, key = _first_part(mock)
    response = answer(mocking, mock, 1, key, "twelve-ish")
    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" in html and "Nothing was recorded" in html
    assert 'value="twelve-ish"' in html
    assert variant.text.splitlines()[0][:40] in html.replace("&#x27;", "'")
    assert not PartAnswer.objects.exists()


def test_it_records_nothing_for_an_empty_box(mocking):
    mock = start(mocking)
    _, _, key = _first_part(mock)
    html = answer(mocking, mock, 1, key, "   ", headers=HX).content.decode()
    assert "Type an answer first." in html
    assert not PartAnswer.objects.exists()


def test_it_records_without_javascript_and_shows_the_page_again(mocking):
    mock = start(mocking)
    _, _, key = _first_part(mock)
    response = answer(mocking, mock, 1, key, "320 KiB")
    assert response.status_code == 302
    assert response["Location"] == f"/mock/{mock.pk}/problems/1/"
    html = mocking.get(response["Location"]).content.decode()
    assert f'id="part-{key}"' in html and "Recorded: " in html
    assert f'action="{answer_url(mock, 1, key)}"' not in html


def test_it_refuses_an_answer_one_second_after_the_deadline_and_grace(mocking, learner):
    mock = start(mocking)
    _, _, key = _first_part(mock)
    late = mock.deadline + services.GRACE + timedelta(seconds=1)
    outcome = services.record_answer(learner, mock.pk, 1, key, "320 KiB", late)
    assert outcome.status == services.CLOSED
    assert not PartAnswer.objects.filter(text="320 KiB").exists()
    mock.refresh_from_db()
    assert mock.ended_at == mock.deadline  # refusing applied the end


def test_it_accepts_an_answer_within_the_grace(mocking, learner):
    mock = start(mocking)
    _, _, key = _first_part(mock)
    in_time = mock.deadline + services.GRACE
    outcome = services.record_answer(learner, mock.pk, 1, key, "320 KiB", in_time)
    assert outcome.status == services.RECORDED
    assert PartAnswer.objects.get().text == "320 KiB"


def test_it_refuses_a_late_answer_whatever_the_client_sends(mocking):
    mock = start(mocking)
    _, _, key = _first_part(mock)
    move_deadline(mock, timezone.now() - services.GRACE - timedelta(seconds=1))
    response = answer(mocking, mock, 1, key, "320 KiB", headers=HX)
    assert response.status_code == 409
    assert response["HX-Redirect"] == f"/mock/{mock.pk}/report/"
    plain = answer(mocking, mock, 1, key, "320 KiB")
    assert plain.status_code == 409 and "This answer was not recorded." in plain.content.decode()
    assert not PartAnswer.objects.filter(text="320 KiB").exists()


def test_it_refuses_answers_after_finishing_early(mocking):
    mock = start(mocking)
    _, _, key = _first_part(mock)
    assert mocking.post(f"/mock/{mock.pk}/finish/").status_code == 302
    assert answer(mocking, mock, 1, key, "320 KiB").status_code == 409
    assert not PartAnswer.objects.filter(text="320 KiB").exists()


def test_it_404s_a_part_or_problem_that_is_not_in_the_mock(mocking):
    mock = start(mocking)
    _, _, key = _first_part(mock)
    assert answer(mocking, mock, 1, "nope", "1").status_code == 404
    assert answer(mocking, mock, 2, key, "1").status_code == 404
    assert mocking.get(f"/mock/{mock.pk}/problems/2/").status_code == 404


@pytest.mark.django_db(transaction=True)
def test_it_records_one_of_two_concurrent_answers_to_a_part(
    client, loaded_bank, django_user_model, live_server
):
    import re
    import urllib.parse
    import urllib.request

    user = django_user_model.objects.create_user("racer", password="a long pass phrase")
    client.force_login(user)
    mock = start(client)
    _, variant, key = _first_part(mock)
    page = client.get(f"/mock/{mock.pk}/problems/1/").content.decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    session = client.cookies["sessionid"].value
    csrf_cookie = client.cookies["csrftoken"].value
    statuses = []

    def submit(text):
        body = urllib.parse.urlencode({"csrfmiddlewaretoken": token, "answer": text}).encode()
        request = urllib.request.Request(
            f"{live_server.url}{answer_url(mock, 1, key)}",
            data=body,
            headers={
                "Cookie": f"sessionid={session}; csrftoken={csrf_cookie}",
                "Referer": live_server.url,
                "HX-Request": "true",
            },
        )
        statuses.append(urllib.request.urlopen(request).status)

    texts = [f"{variant.answer(key) * (1 + n / 10):.6g}" for n in range(8)]
    threads = [threading.Thread(target=submit, args=(text,)) for text in texts]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert statuses == [200] * 8
    stored = PartAnswer.objects.filter(attempt__mock_item__mock=mock, part_key=key)
    assert stored.count() == 1 and stored.get().text in texts
