def test_it_logs_out(client, learner):
    client.force_login(learner)
    response = client.post("/accounts/logout/")
    assert response.status_code == 302
    assert "_auth_user_id" not in client.session


def test_it_refuses_get(client, learner):
    client.force_login(learner)
    assert client.get("/accounts/logout/").status_code == 405
    assert "_auth_user_id" in client.session
