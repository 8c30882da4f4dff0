def test_it_explains_grading_and_scheduling(client, db):
    html = client.get("/help/").content.decode()
    assert "<h1>How your reviews are scheduled</h1>" in html
    assert "<table>" in html
    assert "How your answers are graded" in html
    assert "Error carried forward" in html
