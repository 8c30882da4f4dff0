def test_it_signs_up_and_logs_in(client, django_user_model):
    response = client.post(
        "/accounts/signup/",
        {
            "username": "newperson",
            "password1": "a long pass phrase",
            "password2": "a long pass phrase",
        },
    )
    assert response.status_code == 302
    user = django_user_model.objects.get(username="newperson")
    assert client.session["_auth_user_id"] == str(user.pk)
    assert not user.is_staff
    assert not user.has_perm("problems.author_problems")


def test_it_rejects_a_weak_password(client, django_user_model):
    response = client.post(
        "/accounts/signup/", {"username": "newperson", "password1": "123", "password2": "123"}
    )
    assert response.status_code == 200
    assert b"too short" in response.content
    assert not django_user_model.objects.filter(username="newperson").exists()


def test_it_rejects_a_taken_username(client, learner, django_user_model):
    response = client.post(
        "/accounts/signup/",
        {
            "username": "learner",
            "password1": "a long pass phrase",
            "password2": "a long pass phrase",
        },
    )
    assert response.status_code == 200
    assert b"already exists" in response.content
    assert django_user_model.objects.filter(username="learner").count() == 1


def test_it_sends_a_logged_in_user_home(client, learner):
    client.force_login(learner)
    assert client.get("/accounts/signup/")["Location"] == "/"
