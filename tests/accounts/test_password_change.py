def test_it_changes_the_password(client, learner):
    client.force_login(learner)
    response = client.post(
        "/accounts/password/",
        {
            "old_password": "correct horse 1",
            "new_password1": "another long phrase",
            "new_password2": "another long phrase",
        },
    )
    assert response["Location"] == "/accounts/password/done/"
    learner.refresh_from_db()
    assert learner.check_password("another long phrase")


def test_it_needs_the_old_password(client, learner):
    client.force_login(learner)
    response = client.post(
        "/accounts/password/",
        {
            "old_password": "wrong",
            "new_password1": "another long phrase",
            "new_password2": "another long phrase",
        },
    )
    assert response.status_code == 200
    learner.refresh_from_db()
    assert learner.check_password("correct horse 1")


def test_it_needs_login(client):
    response = client.get("/accounts/password/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")
