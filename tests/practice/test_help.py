def test_it_explains_grading_and_scheduling(client, db):
    html = client.get("/help/").content.decode()
    assert "<h1>How your reviews are scheduled</h1>" in html
    assert "<table>" in html
    assert "How your answers are graded" in html
    assert "Error carried forward" in html


def test_it_describes_the_rating_buttons_as_they_behave(client, db):
    import re

    from trainer.srs.quality import SelfRating, default_rating, rated_quality

    html = client.get("/help/").content.decode()
    rows = dict(
        re.findall(r"<tr>\s*<td>(Again|Hard|Good|Easy)</td>\s*<td>\d</td>\s*<td>([^<]*)", html)
    )
    assert rows["Again"].startswith("at most 2") and rows["Hard"].startswith("at most 3")
    assert rows["Good"].startswith("the automatic grade") and rows["Easy"].startswith("5, only if")
    for automatic in range(6):
        assert rated_quality(automatic, SelfRating.AGAIN, fully_correct=True) == min(automatic, 2)
        assert rated_quality(automatic, SelfRating.HARD, fully_correct=True) == min(automatic, 3)
        assert rated_quality(automatic, SelfRating.GOOD, fully_correct=False) == automatic
        assert rated_quality(automatic, SelfRating.EASY, fully_correct=True) == 5
        assert rated_quality(automatic, SelfRating.EASY, fully_correct=False) == automatic
        assert rated_quality(automatic, default_rating(automatic), fully_correct=True) == automatic
    assert "Good never costs you anything" in html and "Ctrl+Z" in html
